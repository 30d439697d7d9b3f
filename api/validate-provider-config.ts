// Offline check of an InferenceProviderConfig against its CRD schema (types, enums, bounds). CEL rule
// syntax is checked where the rules are compiled (providers/cel.ts). Never throws.

import { providerConfigSpecSchema } from './crd/provider-config-schema.ts';
import { isPlainObject, jsonTypeName } from './overrides.ts';
import { checkStructure } from './structural.ts';
import type { ValidationResult } from './types.ts';

export function validateProviderConfigSpec(spec: unknown): ValidationResult {
  if (!isPlainObject(spec)) {
    return { errors: [{ field: 'spec', message: `spec must be an object, got ${jsonTypeName(spec)}` }], warnings: [] };
  }
  return checkStructure(spec, providerConfigSpecSchema, 'spec');
}
