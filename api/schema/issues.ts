// The interpreter's findings (./check.ts) as issues that stand on their own, the way ModelDeployment
// and InferenceProviderConfig report them (in status messages, admission denials and `kar validate`):
// "<field> <problem>" for a field's own problem, a CEL rule's message as it is, and a warning for each
// field the schema does not declare. The other kinds' CLI takes the warnings from here too. Pure.

import type { JSONSchemaProps } from '../crd/schema-types.ts';
import type { ValidationResult } from '../types.ts';
import { checkValue } from './check.ts';

export function schemaIssues(schema: JSONSchemaProps, value: unknown, field: string): ValidationResult {
  const result: ValidationResult = { errors: [], warnings: [] };
  checkValue(schema, value, field, (at, problem) => result.errors.push({ field: at, message: `${at} ${problem}` }), {
    rule: (at, message) => result.errors.push({ field: at, message }),
    unknown: (at) => result.warnings.push({ field: at, message: `Unknown field '${at}' is not part of the schema`, unknownField: true }),
  });
  return result;
}
