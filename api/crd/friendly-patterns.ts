// The API server words a failed `pattern` as "… in body should match '<regular expression>'", and it
// checks the schema before any webhook runs, so that raw regex was all a user saw. In the CRD, each
// pattern we have words for (PATTERN_DESCRIPTIONS) is a CEL rule instead, whose message is those words:
// `spec.secrets.huggingFaceToken: Invalid value: "string": must be an object name (…)`. The schema in
// api/ keeps `pattern` for the schema interpreter (api/schema/check.ts), which says the same words. Fields in
// unbounded lists (env[].valueFrom.*.name) keep the pattern (see below).

import { PATTERN_DESCRIPTIONS } from './model-deployment-schema.ts';
import type { JSONSchemaProps } from './schema-types.ts';

export function withFriendlyPatterns(schema: JSONSchemaProps): JSONSchemaProps {
  const out: JSONSchemaProps = { ...schema };
  const description = schema.pattern !== undefined ? PATTERN_DESCRIPTIONS[schema.pattern] : undefined;
  if (schema.type === 'string' && schema.pattern !== undefined && description !== undefined) {
    delete out.pattern;
    // A raw string: CEL would read the regex's backslashes as escapes.
    out['x-kubernetes-validations'] = [...(schema['x-kubernetes-validations'] ?? []), { rule: `self.matches(r'${schema.pattern}')`, message: `must be ${description}` }];
  }
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, withFriendlyPatterns(v)]));
  // Not inside maps or unbounded lists: a rule there is counted once per possible element, and the API
  // server refuses a CRD whose estimated cost is over budget (env has no maxItems). Those keep `pattern`;
  // a list with maxItems (storage.volumes, 8) costs a known few.
  if (schema.type === 'array' && schema.maxItems !== undefined && schema.items) out.items = withFriendlyPatterns(schema.items);
  return out;
}
