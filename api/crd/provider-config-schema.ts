// OpenAPI schema of InferenceProviderConfig (seed 001 §3.9), cluster-scoped.

import { SERVING_MODES } from '../constants.ts';
import { conditionsSchema } from './common-schemas.ts';
import type { JSONSchemaProps } from './schema-types.ts';

export const providerConfigSpecSchema: JSONSchemaProps = {
  type: 'object',
  description: 'What a provider can run and when the selector should prefer it.',
  properties: {
    capabilities: {
      type: 'object',
      properties: {
        engines: {
          type: 'array',
          description: 'Engines the provider runs (vllm, sglang, trtllm, llamacpp, or engines of its own).',
          'x-kubernetes-list-type': 'set',
          maxItems: 32,
          items: { type: 'string', maxLength: 63 },
        },
        servingModes: {
          type: 'array',
          'x-kubernetes-list-type': 'set',
          maxItems: 2,
          items: { type: 'string', enum: [...SERVING_MODES] },
        },
        cpuSupport: { type: 'boolean', description: 'Can serve without GPUs.' },
        gpuSupport: { type: 'boolean', description: 'Can serve on GPUs.' },
      },
    },
    selectionRules: {
      type: 'array',
      description: 'CEL conditions over `spec` (the ModelDeployment spec); the highest matching priority wins.',
      maxItems: 64,
      items: {
        type: 'object',
        required: ['condition'],
        properties: {
          condition: { type: 'string', minLength: 1, maxLength: 4096, description: 'CEL expression, e.g. spec.engine.type == \'llamacpp\'.' },
          priority: { type: 'integer', format: 'int32', minimum: 0, default: 0 },
        },
      },
    },
    documentation: { type: 'string', description: 'Link to the provider documentation.', maxLength: 2048 },
    installation: {
      type: 'object',
      description: 'How to install the upstream operator (free-form, informational).',
      'x-kubernetes-preserve-unknown-fields': true,
    },
    // Recursive (object properties hold schemas), which a structural CRD schema cannot express: its
    // shape is checked by api/override-schema-shape.ts instead.
    overrideSchema: {
      type: 'object',
      description:
        'What spec.provider.overrides of a ModelDeployment may hold: {type: object|string|integer|number|boolean|quantity|array|map|any (quantity: a Kubernetes quantity such as 16Gi or 500m, or a non-negative number), properties, items, values, enum, minimum, maximum, description, default}. Unknown keys are warned about, wrong types rejected at admission.',
      'x-kubernetes-preserve-unknown-fields': true,
    },
  },
};

export const providerConfigStatusSchema: JSONSchemaProps = {
  type: 'object',
  description: 'Written by the provider on startup and on every heartbeat.',
  properties: {
    ready: { type: 'boolean' },
    version: { type: 'string', description: 'Provider build, e.g. kaito-provider:v1.2.0.' },
    lastHeartbeat: { type: 'string', format: 'date-time' },
    upstreamCRDVersion: { type: 'string', description: 'Detected upstream group/version, e.g. kaito.sh/v1beta1.' },
    upstreamSchemaHash: { type: 'string' },
    conditions: conditionsSchema,
  },
};
