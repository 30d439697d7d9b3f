// KAITO accepts no overrides (seed 001 §4.15: aggregated mode only, no router component), so every
// key is reported as unknown.

import { NO_OVERRIDES } from '../../api/overrides.ts';
import type { OverrideSchema } from '../../api/overrides.ts';

export const KAITO_OVERRIDE_SCHEMA: OverrideSchema = NO_OVERRIDES;
