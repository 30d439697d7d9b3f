// The ModelDeployment declaration (seed 001 §4.1): a typed schema (api/schema/typed.ts), the source of
// its spec types, of its validation, of its defaults (api/defaults.ts applies them) and of deploy/crds/.

import { OBJECT_NAME_DESCRIPTION } from '../common/patterns.ts';
import { DEFAULT_GPU_TYPE, ENGINE_TYPES, MODEL_SOURCES, PHASES, SERVING_MODES } from '../constants.ts';
import { MAX_GPU_COUNT, MAX_REPLICAS } from '../limits.ts';
import { specCelRules, specTransitionRules } from './cel-rules.ts';
import { modelStorageSchema, STORAGE_PATTERN_DESCRIPTIONS } from './storage-schema.ts';
import { conditionsSchema } from './common-schemas.ts';
import { gatewaySpecSchema, gatewayStatusSchema } from './gateway-schema.ts';
import { bool, enumOf, freeObject, int, integer, listOf, mapOf, object, openObject, str, type Schema } from '../schema/typed.ts';

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

/** Words for the validator's messages (and the CRD's rules, ./friendly-patterns.ts); the API server only says "should match '<pattern>'". */
export const PATTERN_DESCRIPTIONS: Readonly<Record<string, string>> = {
  [QUANTITY_PATTERN]: 'a Kubernetes quantity such as "32Gi" or "4"',
  [PROVIDER_NAME_PATTERN]: 'the name of an InferenceProviderConfig, such as "kaito"',
  [OBJECT_NAME_PATTERN]: OBJECT_NAME_DESCRIPTION,
  ...STORAGE_PATTERN_DESCRIPTIONS,
};

/** A string of a map or list that says no more than its type. */
const plainString: Schema<string, false> = { type: 'string' };
const quantity = (description: string) => str(description, { pattern: QUANTITY_PATTERN, maxLength: 64, what: PATTERN_DESCRIPTIONS[QUANTITY_PATTERN] });
const stringMap = (description: string) => mapOf(description, plainString);

const gpuSchema = object('GPU request. An omitted gpu means CPU only (count 0).', {
  count: int(`Number of GPUs per replica (all on one node); 0 means CPU only, at most ${MAX_GPU_COUNT}.`, 0, { maximum: MAX_GPU_COUNT, default: 0 }),
  type: str('Extended resource name of the GPU (defaults to nvidia.com/gpu; e.g. amd.com/gpu).', { default: DEFAULT_GPU_TYPE, maxLength: 253 }),
});

const componentScalingSchema = (component: string) =>
  object(`Disaggregated-mode ${component} workers.`, {
    cpu: quantity(`CPU per ${component} worker, e.g. "8".`),
    gpu: gpuSchema,
    memory: quantity(`Memory per ${component} worker (required for disaggregated mode), e.g. 64Gi.`),
    replicas: int(`Number of ${component} workers.`, 0, { maximum: MAX_REPLICAS, default: 1 }),
  });

/** A `secretKeyRef` / `configMapKeyRef` of an env var: its name must be an object name. */
const keyReference = (kind: string) =>
  openObject(undefined, {
    name: str(`Name of the ${kind} in the same namespace.`, { maxLength: 253, pattern: OBJECT_NAME_PATTERN, what: PATTERN_DESCRIPTIONS[OBJECT_NAME_PATTERN] }),
  });

const envVarSchema = object(
  undefined,
  {
    name: str('Environment variable name.', { minLength: 1 }),
    value: str('Value of the variable.'),
    // Only the names of referenced objects are checked here: anything else is the pod's business.
    valueFrom: openObject('Source for the value (as in a Pod container), passed through unchanged.', {
      configMapKeyRef: keyReference('ConfigMap'),
      secretKeyRef: keyReference('Secret'),
    }),
  },
  { required: ['name'] },
);

// Enums inside a list, compared by no CEL rule, so without the bound enumOf gives.
const tolerationEffect: Schema<'NoSchedule' | 'PreferNoSchedule' | 'NoExecute', false> = {
  type: 'string',
  description: 'Taint effect to match.',
  enum: ['NoSchedule', 'PreferNoSchedule', 'NoExecute'],
};
const tolerationOperator: Schema<'Exists' | 'Equal', false> = { type: 'string', description: 'Exists or Equal.', enum: ['Exists', 'Equal'] };

const tolerationSchema = object(undefined, {
  effect: tolerationEffect,
  key: str('Taint key the toleration applies to.'),
  operator: tolerationOperator,
  tolerationSeconds: integer('How long a NoExecute taint is tolerated.', { format: 'int64' }),
  value: str('Taint value the toleration matches.'),
});

/**
 * The spec, declared once: its types derive from it (api/types.ts), the one interpreter checks it
 * (api/schema/check.ts, its CEL rules included) and the CRD serializes it. Properties are listed in
 * alphabetical order, the order the validator reports problems in.
 */
export const modelDeploymentSpecSchema = object(
  'Desired state of a model deployment.',
  {
    engine: object('Inference engine configuration.', {
      args: stringMap('Engine-specific flags, passed to the engine as strings.'),
      contextLength: int('Maximum context length (vllm --max-model-len, sglang --context-length, llamacpp --ctx-size).', 1),
      trustRemoteCode: bool('Allow HuggingFace models with custom code (vllm, sglang).', { default: false }),
      type: enumOf(ENGINE_TYPES, 'Inference engine.', { maxLength: 16 }),
    }),
    env: listOf('Environment variables for the model containers.', envVarSchema),
    gateway: gatewaySpecSchema,
    image: str('Custom container image (otherwise the provider default for the engine).', { maxLength: 1024 }),
    model: object(
      'Which model to serve.',
      {
        id: str('HuggingFace model id, e.g. meta-llama/Llama-3.1-8B-Instruct (required when source is huggingface).', { maxLength: 256 }),
        servedName: str('API-facing model name (defaults to the last segment of id; ignored for custom source).', { maxLength: 256 }),
        source: enumOf(MODEL_SOURCES, 'huggingface (downloaded at start) or custom (pre-loaded in the image).', { default: 'huggingface', maxLength: 16 }),
        storage: modelStorageSchema,
      },
      { default: {} },
    ),
    nodeSelector: stringMap('Node labels the model pods must run on.'),
    podTemplate: object('Metadata for the created pods.', {
      metadata: object(undefined, {
        annotations: stringMap('Annotations for the created pods.'),
        labels: stringMap('Labels for the created pods.'),
      }),
    }),
    provider: object('Provider choice; auto-selected when name is omitted.', {
      name: str('Provider name (dynamo, kaito, kuberay or a third-party provider).', {
        maxLength: 253,
        pattern: PROVIDER_NAME_PATTERN,
        what: PATTERN_DESCRIPTIONS[PROVIDER_NAME_PATTERN],
      }),
      overrides: freeObject('Provider-specific settings (see the provider documentation); unknown keys are warned about.'),
    }),
    resources: object('Per-replica resources in aggregated mode (not allowed with a GPU in disaggregated mode).', {
      cpu: quantity('CPU per replica, e.g. "4".'),
      gpu: gpuSchema,
      memory: quantity('Memory per replica, e.g. 32Gi.'),
    }),
    scaling: object(
      'Replica counts.',
      {
        decode: componentScalingSchema('decode'),
        prefill: componentScalingSchema('prefill'),
        replicas: int('Replicas in aggregated mode (0 scales to zero).', 0, { maximum: MAX_REPLICAS, default: 1 }),
      },
      { default: {} },
    ),
    secrets: object('References to Secrets in the same namespace (names only; contents are never read).', {
      huggingFaceToken: str('Name of the Secret injected with envFromSecret (e.g. with an HF_TOKEN key).', {
        maxLength: 253,
        pattern: OBJECT_NAME_PATTERN,
        what: PATTERN_DESCRIPTIONS[OBJECT_NAME_PATTERN],
      }),
    }),
    serving: object(
      'Serving topology.',
      { mode: enumOf(SERVING_MODES, 'aggregated, or disaggregated prefill/decode.', { default: 'aggregated', maxLength: 16 }) },
      { default: {} },
    ),
    tolerations: listOf('Taints the model pods tolerate.', tolerationSchema),
  },
  { 'x-kubernetes-validations': [...specCelRules, ...specTransitionRules] },
);

/** A replica count of the status (the CRD never described them). */
const replicaCount = () => integer(undefined, { format: 'int32', minimum: 0 });

export const modelDeploymentStatusSchema = object('Observed state, written by the core controller and the provider (server-side apply).', {
  phase: str('Unified phase.', { enum: [...PHASES] }),
  message: str('Human-readable detail, e.g. an error extracted from the provider status.'),
  provider: object(undefined, {
    name: str('Selected provider (core controller).'),
    selectedReason: str('Why the provider was chosen (core controller).'),
    resourceName: str('Name of the provider resource (provider).'),
    resourceKind: str('Kind of the provider resource (provider).'),
  }),
  replicas: object(undefined, { desired: replicaCount(), ready: replicaCount(), available: replicaCount() }),
  endpoint: object('ClusterIP service serving the model.', {
    service: str('Service name.'),
    port: integer(undefined, { format: 'int32', minimum: 1, maximum: 65535 }),
  }),
  gateway: gatewayStatusSchema,
  conditions: conditionsSchema,
  observedGeneration: integer(undefined, { format: 'int64' }),
});
