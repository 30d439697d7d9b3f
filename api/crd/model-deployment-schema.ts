// OpenAPI schema of ModelDeployment (seed 001 §4.1). Source of deploy/crds/ and of the offline
// structural check. Defaults here must match api/defaults.ts (a unit test compares them).

import { DEFAULT_GPU_TYPE, ENGINE_TYPES, MODEL_SOURCES, PHASES, SERVING_MODES } from '../constants.ts';
import { MAX_GPU_COUNT, MAX_REPLICAS } from '../limits.ts';
import { specCelRules, specTransitionRules } from './cel-rules.ts';
import { conditionsSchema } from './common-schemas.ts';
import type { JSONSchemaProps } from './schema-types.ts';

/** Kubernetes resource quantity ("32Gi", "500m", "4"), the pattern the API server uses for Quantity. */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/**
 * The name of an InferenceProviderConfig (a DNS-1123 subdomain), or empty: an empty provider name means
 * "select one for me".
 */
export const PROVIDER_NAME_PATTERN = '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$';

/**
 * The name of an object referenced in the same namespace (a Secret, a ConfigMap): a DNS-1123 subdomain.
 * The API server cannot check a reference inside our spec by itself; without this pattern a bad name
 * would fail only when the provider's operator creates pods. To refer to nothing, omit the field.
 */
export const OBJECT_NAME_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

/** Words for the offline check's messages; the API server only says "should match '<pattern>'". */
export const PATTERN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [QUANTITY_PATTERN]: 'a Kubernetes quantity such as "32Gi" or "4"',
  [PROVIDER_NAME_PATTERN]: 'the name of an InferenceProviderConfig, such as "kaito"',
  [OBJECT_NAME_PATTERN]:
    "an object name (lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, such as \"hf-token\")",
};

const str = (description: string, extra: JSONSchemaProps = {}): JSONSchemaProps => ({ type: 'string', description, ...extra });
const quantity = (description: string): JSONSchemaProps => str(description, { pattern: QUANTITY_PATTERN, maxLength: 64 });
const stringMap = (description: string): JSONSchemaProps => ({
  type: 'object',
  description,
  additionalProperties: { type: 'string' },
});

const gpuSchema: JSONSchemaProps = {
  type: 'object',
  description: 'GPU request. An omitted gpu means CPU only (count 0).',
  properties: {
    count: {
      type: 'integer',
      format: 'int32',
      minimum: 0,
      maximum: MAX_GPU_COUNT,
      default: 0,
      description: `Number of GPUs per replica (all on one node); 0 means CPU only, at most ${MAX_GPU_COUNT}.`,
    },
    type: str('Extended resource name of the GPU (defaults to nvidia.com/gpu; e.g. amd.com/gpu).', {
      default: DEFAULT_GPU_TYPE,
      maxLength: 253,
    }),
  },
};

const componentScalingSchema = (component: string): JSONSchemaProps => ({
  type: 'object',
  description: `Disaggregated-mode ${component} workers.`,
  properties: {
    replicas: { type: 'integer', format: 'int32', minimum: 0, maximum: MAX_REPLICAS, default: 1, description: `Number of ${component} workers.` },
    gpu: gpuSchema,
    memory: quantity(`Memory per ${component} worker (required for disaggregated mode), e.g. 64Gi.`),
    cpu: quantity(`CPU per ${component} worker, e.g. "8".`),
  },
});

/** A `secretKeyRef` / `configMapKeyRef` of an env var: its name must be an object name. */
const keyReference = (kind: string): JSONSchemaProps => ({
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  properties: { name: str(`Name of the ${kind} in the same namespace.`, { maxLength: 253, pattern: OBJECT_NAME_PATTERN }) },
});

const envVarSchema: JSONSchemaProps = {
  type: 'object',
  required: ['name'],
  properties: {
    name: str('Environment variable name.', { minLength: 1 }),
    value: str('Value of the variable.'),
    valueFrom: {
      type: 'object',
      description: 'Source for the value (as in a Pod container), passed through unchanged.',
      'x-kubernetes-preserve-unknown-fields': true,
      // Only the names of referenced objects are checked here: anything else is the pod's business.
      properties: { secretKeyRef: keyReference('Secret'), configMapKeyRef: keyReference('ConfigMap') },
    },
  },
};

const tolerationSchema: JSONSchemaProps = {
  type: 'object',
  properties: {
    key: str('Taint key the toleration applies to.'),
    operator: str('Exists or Equal.', { enum: ['Exists', 'Equal'] }),
    value: str('Taint value the toleration matches.'),
    effect: str('Taint effect to match.', { enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] }),
    tolerationSeconds: { type: 'integer', format: 'int64', description: 'How long a NoExecute taint is tolerated.' },
  },
};

export const modelDeploymentSpecSchema: JSONSchemaProps = {
  type: 'object',
  description: 'Desired state of a model deployment.',
  'x-kubernetes-validations': [...specCelRules, ...specTransitionRules],
  properties: {
    model: {
      type: 'object',
      description: 'Which model to serve.',
      default: {},
      properties: {
        id: str('HuggingFace model id, e.g. meta-llama/Llama-3.1-8B-Instruct (required when source is huggingface).', {
          maxLength: 256,
        }),
        servedName: str('API-facing model name (defaults to the last segment of id; ignored for custom source).', {
          maxLength: 256,
        }),
        source: str('huggingface (downloaded at start) or custom (pre-loaded in the image).', {
          enum: [...MODEL_SOURCES],
          default: 'huggingface',
          maxLength: 16,
        }),
      },
    },
    provider: {
      type: 'object',
      description: 'Provider choice; auto-selected when name is omitted.',
      properties: {
        name: str('Provider name (dynamo, kaito, kuberay or a third-party provider).', {
          maxLength: 253,
          pattern: PROVIDER_NAME_PATTERN,
        }),
        overrides: {
          type: 'object',
          description: 'Provider-specific settings (see the provider documentation); unknown keys are warned about.',
          'x-kubernetes-preserve-unknown-fields': true,
        },
      },
    },
    engine: {
      type: 'object',
      description: 'Inference engine configuration.',
      properties: {
        type: str('Inference engine.', { enum: [...ENGINE_TYPES], maxLength: 16 }),
        contextLength: {
          type: 'integer',
          format: 'int32',
          minimum: 1,
          description: 'Maximum context length (vllm --max-model-len, sglang --context-length, llamacpp --ctx-size).',
        },
        trustRemoteCode: { type: 'boolean', default: false, description: 'Allow HuggingFace models with custom code (vllm, sglang).' },
        args: stringMap('Engine-specific flags, passed to the engine as strings.'),
      },
    },
    serving: {
      type: 'object',
      description: 'Serving topology.',
      default: {},
      properties: {
        mode: str('aggregated, or disaggregated prefill/decode.', { enum: [...SERVING_MODES], default: 'aggregated', maxLength: 16 }),
      },
    },
    scaling: {
      type: 'object',
      description: 'Replica counts.',
      default: {},
      properties: {
        replicas: {
          type: 'integer',
          format: 'int32',
          minimum: 0,
          maximum: MAX_REPLICAS,
          default: 1,
          description: 'Replicas in aggregated mode (0 scales to zero).',
        },
        prefill: componentScalingSchema('prefill'),
        decode: componentScalingSchema('decode'),
      },
    },
    resources: {
      type: 'object',
      description: 'Per-replica resources in aggregated mode (not allowed with a GPU in disaggregated mode).',
      properties: {
        gpu: gpuSchema,
        memory: quantity('Memory per replica, e.g. 32Gi.'),
        cpu: quantity('CPU per replica, e.g. "4".'),
      },
    },
    image: str('Custom container image (otherwise the provider default for the engine).', { maxLength: 1024 }),
    env: { type: 'array', description: 'Environment variables for the model containers.', items: envVarSchema },
    podTemplate: {
      type: 'object',
      description: 'Metadata for the created pods.',
      properties: {
        metadata: {
          type: 'object',
          properties: {
            labels: stringMap('Labels for the created pods.'),
            annotations: stringMap('Annotations for the created pods.'),
          },
        },
      },
    },
    secrets: {
      type: 'object',
      description: 'References to Secrets in the same namespace (names only; contents are never read).',
      properties: {
        huggingFaceToken: str('Name of the Secret injected with envFromSecret (e.g. with an HF_TOKEN key).', {
          maxLength: 253,
          pattern: OBJECT_NAME_PATTERN,
        }),
      },
    },
    nodeSelector: stringMap('Node labels the model pods must run on.'),
    tolerations: { type: 'array', description: 'Taints the model pods tolerate.', items: tolerationSchema },
  },
};

export const modelDeploymentStatusSchema: JSONSchemaProps = {
  type: 'object',
  description: 'Observed state, written by the core controller and the provider (server-side apply).',
  properties: {
    phase: str('Unified phase.', { enum: [...PHASES] }),
    message: str('Human-readable detail, e.g. an error extracted from the provider status.'),
    provider: {
      type: 'object',
      properties: {
        name: str('Selected provider (core controller).'),
        selectedReason: str('Why the provider was chosen (core controller).'),
        resourceName: str('Name of the provider resource (provider).'),
        resourceKind: str('Kind of the provider resource (provider).'),
      },
    },
    replicas: {
      type: 'object',
      properties: {
        desired: { type: 'integer', format: 'int32', minimum: 0 },
        ready: { type: 'integer', format: 'int32', minimum: 0 },
        available: { type: 'integer', format: 'int32', minimum: 0 },
      },
    },
    endpoint: {
      type: 'object',
      description: 'ClusterIP service serving the model.',
      properties: {
        service: str('Service name.'),
        port: { type: 'integer', format: 'int32', minimum: 1, maximum: 65535 },
      },
    },
    conditions: conditionsSchema,
    observedGeneration: { type: 'integer', format: 'int64' },
  },
};
