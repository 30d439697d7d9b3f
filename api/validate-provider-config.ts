// Offline check of an InferenceProviderConfig against its declaration (types, enums, bounds, list sizes
// and uniqueness, by the one schema interpreter) and of the shape of its published override schema. CEL
// rule syntax is checked where the rules are compiled (providers/cel.ts). Never throws.

import { providerConfigSpecSchema } from './crd/provider-config-schema.ts';
import { checkOverrideSchema } from './override-schema-shape.ts';
import { isPlainObject, jsonTypeName } from './overrides.ts';
import { schemaIssues } from './schema/issues.ts';
import type { ValidationResult } from './types.ts';

export function validateProviderConfigSpec(spec: unknown): ValidationResult {
  if (!isPlainObject(spec)) {
    return { errors: [{ field: 'spec', message: `spec must be an object, got ${jsonTypeName(spec)}` }], warnings: [] };
  }
  const result = schemaIssues(providerConfigSpecSchema, spec, 'spec');
  if (isPlainObject(spec.overrideSchema)) {
    // A non-object was reported by the schema already.
    const shape = checkOverrideSchema(spec.overrideSchema, 'spec.overrideSchema');
    result.errors.push(...shape.errors);
    result.warnings.push(...shape.warnings);
  }
  return result;
}
