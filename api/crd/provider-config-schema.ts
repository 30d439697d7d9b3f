// The InferenceProviderConfig declaration (seed 001 §3.9), cluster-scoped: a typed schema
// (api/schema/typed.ts), the source of its spec types (api/types.ts), of its validation
// (api/validate-provider-config.ts) and of deploy/crds/. Properties are listed in alphabetical order,
// the order the validator reports problems in.

import { SERVING_MODES } from '../constants.ts';
import { bool, freeObject, listOf, object, str, type Schema } from '../schema/typed.ts';
import { conditionsSchema } from './common-schemas.ts';

type ServingMode = (typeof SERVING_MODES)[number];

// Nodes with no description of their own.
const engineName: Schema<string, false> = { type: 'string', maxLength: 63 };
const servingModes: Schema<ServingMode[], false> = { type: 'array', 'x-kubernetes-list-type': 'set', maxItems: 2, items: { type: 'string', enum: [...SERVING_MODES] } };
// The bound besides the format: see int() in ../schema/typed.ts.
const priority: Schema<number, true> = { type: 'integer', format: 'int32', minimum: 0, maximum: 2 ** 31 - 1, default: 0 };

export const providerConfigSpecSchema = object('What a provider can run and when the selector should prefer it.', {
  capabilities: object(undefined, {
    cpuSupport: bool('Can serve without GPUs.'),
    engines: listOf('Engines the provider runs (vllm, sglang, trtllm, llamacpp, or engines of its own).', engineName, { 'x-kubernetes-list-type': 'set', maxItems: 32 }),
    gpuSupport: bool('Can serve on GPUs.'),
    servingModes,
  }),
  documentation: str('Link to the provider documentation.', { maxLength: 2048 }),
  installation: freeObject('How to install the upstream operator (free-form, informational).'),
  // Recursive (object properties hold schemas), which a structural CRD schema cannot express: its
  // shape is checked by api/override-schema-shape.ts instead.
  overrideSchema: freeObject(
    'What spec.provider.overrides of a ModelDeployment may hold: {type: object|string|integer|number|boolean|quantity|array|map|any (quantity: a Kubernetes quantity such as 16Gi or 500m, or a non-negative number), properties, items, values, enum, minimum, maximum, description, default}. Unknown keys are warned about, wrong types rejected at admission.',
  ),
  selectionRules: listOf(
    'CEL conditions over `spec` (the ModelDeployment spec); the highest matching priority wins.',
    object(
      undefined,
      {
        condition: str("CEL expression, e.g. spec.engine.type == 'llamacpp'.", { minLength: 1, maxLength: 4096 }),
        priority,
      },
      { required: ['condition'] },
    ),
    { maxItems: 64 },
  ),
});

export const providerConfigStatusSchema = object('Written by the provider on startup and on every heartbeat.', {
  ready: bool(undefined),
  version: str('Provider build, e.g. kaito-provider:v1.2.0.'),
  lastHeartbeat: str(undefined, { format: 'date-time' }),
  upstreamCRDVersion: str('Detected upstream group/version, e.g. kaito.sh/v1beta1.'),
  upstreamSchemaHash: str(undefined),
  conditions: conditionsSchema,
});
