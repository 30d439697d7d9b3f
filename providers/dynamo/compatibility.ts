// Dynamo compatibility: the seed's rows (llamacpp, GPU required) follow from the capabilities; GPUs of
// prefill/decode workers count as GPU in disaggregated mode.

import type { ModelDeployment } from '../../api/types.ts';
import type { CompatibilityResult } from '../contract.ts';
import { checkCompatibility } from '../shared/capability-check.ts';
import { DYNAMO_CONFIG, DYNAMO_DISPLAY_NAME } from './config.ts';
import { DYNAMO_OVERRIDE_SCHEMA } from './overrides.ts';

export function dynamoCompatibility(md: ModelDeployment): CompatibilityResult {
  return checkCompatibility(md, { displayName: DYNAMO_DISPLAY_NAME, config: DYNAMO_CONFIG, overrideSchema: DYNAMO_OVERRIDE_SCHEMA });
}
