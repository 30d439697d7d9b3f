// The seed's validation rules that the API server can enforce on its own, as CEL rules on `spec`
// (x-kubernetes-validations), plus ours (custom source needs an image; both kinds of disaggregated
// worker; kubectl scale of a disaggregated deployment). They are stated only here: the offline validator
// evaluates them too (api/schema/check.ts), so `kubectl apply` without the webhook, the webhook and
// `kar validate` answer in the same words (api/validation-messages.ts). "Provider CRD not installed"
// needs cluster state and the warnings are not errors; they stay in api/validate.ts.
//
// The rules run after CRD defaulting, but every field is still guarded with has(): defaults apply only
// where a parent object exists, and a rule must not fail with "no such key" instead of its message.

import { GPU_ENGINES, ValidationMessage } from '../validation-messages.ts';
import type { CelValidationRule } from './schema-types.ts';

const isDisaggregated = (obj: string): string => `(has(${obj}.serving) && has(${obj}.serving.mode) && ${obj}.serving.mode == 'disaggregated')`;
const disaggregated = isDisaggregated('self');
const noResourceGpu =
  `(!has(self.resources) || !has(self.resources.gpu) || !has(self.resources.gpu.count) || self.resources.gpu.count == 0)`;

function componentGpuRule(component: 'prefill' | 'decode', message: string): CelValidationRule {
  const c = `self.scaling.${component}`;
  return {
    rule: `!${disaggregated} || !has(self.scaling) || !has(${c}) || (has(${c}.gpu) && has(${c}.gpu.count) && ${c}.gpu.count > 0)`,
    message,
    fieldPath: `.scaling.${component}.gpu.count`,
    reason: 'FieldValueRequired',
  };
}

/** Zero `component` workers while the `other` kind runs: a disaggregated deployment that serves nothing. */
function componentWorkersRule(component: 'prefill' | 'decode', other: 'prefill' | 'decode', message: string): CelValidationRule {
  // An omitted count is the CRD default, 1 (defaulting applies inside an existing prefill/decode object).
  const count = (c: string) => `(has(self.scaling.${c}.replicas) ? self.scaling.${c}.replicas : 1)`;
  return {
    rule: `!${disaggregated} || !has(self.scaling) || !has(self.scaling.prefill) || !has(self.scaling.decode) || ${count(component)} != 0 || ${count(other)} == 0`,
    message,
    fieldPath: `.scaling.${component}.replicas`,
    reason: 'FieldValueInvalid',
  };
}

function engineGpuRules(): CelValidationRule[] {
  return Object.entries(GPU_ENGINES).map(([engine, displayName]) => ({
    rule: `!(has(self.engine) && has(self.engine.type) && self.engine.type == '${engine}' && !${disaggregated} && ${noResourceGpu})`,
    message: ValidationMessage.engineRequiresGpu(displayName ?? engine),
    fieldPath: '.resources.gpu.count',
    reason: 'FieldValueInvalid' as const,
  }));
}

/**
 * In the order of the seed's table (seed 001 §8), then ours: the order the API server and the offline
 * validator (api/schema/check.ts) report them in.
 */
export const specCelRules: readonly CelValidationRule[] = [
  ...engineGpuRules(),
  {
    rule: `!(${disaggregated} && has(self.resources) && has(self.resources.gpu))`,
    message: ValidationMessage.disaggregatedWithResourcesGpu,
    fieldPath: '.resources.gpu',
    reason: 'FieldValueForbidden',
  },
  {
    rule: `!${disaggregated} || (has(self.scaling) && has(self.scaling.prefill) && has(self.scaling.decode))`,
    message: ValidationMessage.disaggregatedRequiresPrefillAndDecode,
    fieldPath: '.scaling',
    reason: 'FieldValueRequired',
  },
  componentGpuRule('prefill', ValidationMessage.disaggregatedRequiresPrefillGpu),
  componentGpuRule('decode', ValidationMessage.disaggregatedRequiresDecodeGpu),
  {
    rule: `has(self.engine) && has(self.engine.type) && self.engine.type != ''`,
    message: ValidationMessage.engineTypeRequired,
    fieldPath: '.engine.type',
    reason: 'FieldValueRequired',
  },
  {
    rule: `(has(self.model) && has(self.model.source) && self.model.source == 'custom') || (has(self.model) && has(self.model.id) && self.model.id != '')`,
    message: ValidationMessage.modelIdRequired,
    fieldPath: '.model.id',
    reason: 'FieldValueRequired',
  },
  // Beyond the seed's table.
  {
    rule: `!(has(self.model) && has(self.model.source) && self.model.source == 'custom') || (has(self.image) && self.image != '')`,
    message: ValidationMessage.customSourceRequiresImage,
    fieldPath: '.image',
    reason: 'FieldValueRequired',
  },
  componentWorkersRule('prefill', 'decode', ValidationMessage.disaggregatedNoPrefillWorkers),
  componentWorkersRule('decode', 'prefill', ValidationMessage.disaggregatedNoDecodeWorkers),
];

/** scaling.replicas as the controller reads it: the CRD defaults an omitted value to 1. */
const replicas = (obj: string): string => `(has(${obj}.scaling) && has(${obj}.scaling.replicas) ? ${obj}.scaling.replicas : 1)`;

/**
 * Rules about a change (transition rules, `oldSelf`); the API server runs them on updates only. The scale
 * subresource writes spec.scaling.replicas through the main resource's validation, so `kubectl scale`
 * of a disaggregated deployment, which would change nothing that runs, is refused here with a message
 * that says what to set instead, even while the webhook is down (it never sees subresources).
 */
export const specTransitionRules: readonly CelValidationRule[] = [
  {
    rule: `!(${isDisaggregated('self')} && ${isDisaggregated('oldSelf')}) || ${replicas('self')} == ${replicas('oldSelf')}`,
    message: ValidationMessage.disaggregatedReplicasFixed,
    fieldPath: '.scaling.replicas',
    reason: 'FieldValueForbidden',
  },
];
