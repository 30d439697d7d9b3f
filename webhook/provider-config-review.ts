// Admission of InferenceProviderConfigs: every CEL selection rule must compile. The rest of the spec is
// the CRD schema's to check (it runs before this webhook). A rule that compiles but fails on some specs
// (division by zero, a missing key, a non-boolean result) cannot be known here: selection reports those
// on the deployment and on the config's RulesValid condition (activities/core/rule-error-report.ts).

import { GROUP, PROVIDER_CONFIG_KIND } from '../api/constants.ts';
import { jsonEqual } from '../api/json-equal.ts';
import { isPlainObject } from '../api/overrides.ts';
import { selectionRuleCompileErrors } from '../providers/rule-errors.ts';
import { allow, deny, type AdmissionRequest, type AdmissionResponse } from './admission.ts';
import { ERROR_SEPARATOR } from './review.ts';

/** Same second line as for ModelDeployments (review.ts): only creates and spec updates of the object itself. */
function reviewed(req: AdmissionRequest): boolean {
  if (req.operation !== 'CREATE' && req.operation !== 'UPDATE') return false;
  if (req.subResource) return false;
  if (req.kind && (req.kind.group !== GROUP || req.kind.kind !== PROVIDER_CONFIG_KIND)) return false;
  return isPlainObject(req.object);
}

export function validateProviderConfigRequest(req: AdmissionRequest): AdmissionResponse {
  if (!reviewed(req)) return allow(req.uid);
  const spec = (req.object as Record<string, unknown>).spec;
  // A metadata-only update (an older API server without matchConditions) changes no rule.
  if (req.operation === 'UPDATE' && isPlainObject(req.oldObject) && jsonEqual(spec, req.oldObject.spec)) return allow(req.uid);
  const errors = selectionRuleCompileErrors(spec);
  if (errors.length === 0) return allow(req.uid);
  return deny(req.uid, errors.map((e) => e.message).join(ERROR_SEPARATOR));
}
