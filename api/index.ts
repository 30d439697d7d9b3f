// Public entry of api/: types, constants, defaults, validation and update classification. Pure code
// only (no I/O), so workflow code may import it.

export type * from './types.ts';
export * from './constants.ts';
export { conditionMessages, events, selectionMessages, type EventSpec } from './messages.ts';
export { applyDefaults, type DefaultsOptions } from './defaults.ts';
export { validate, type ValidationContext } from './validate.ts';
export { validateProviderConfigSpec } from './validate-provider-config.ts';
export { checkOverrideSchema, overrideSchemaOf } from './override-schema-shape.ts';
export { MAX_GPU_COUNT, MAX_GPUS_PER_SERVER } from './limits.ts';
export { GPU_ENGINES, ValidationMessage } from './validation-messages.ts';
export {
  checkOverrides,
  describeOverrideType,
  NO_OVERRIDES,
  OVERRIDES_PATH,
  type OverrideSchema,
} from './overrides.ts';
export { classifyUpdate, CONFIG_FIELDS, IDENTITY_FIELDS, type UpdateClassification } from './update-classification.ts';
export {
  componentGpuCount,
  explicitProvider,
  gpuCount,
  gpuType,
  isReconcilePaused,
  modelBasename,
  modelSource,
  requestsGpu,
  servedName,
  servingMode,
} from './spec-helpers.ts';
export { jsonEqual } from './json-equal.ts';
