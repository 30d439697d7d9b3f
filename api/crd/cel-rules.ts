// The seed's validation rules that the API server can enforce on its own, as CEL rules on `spec`
// (x-kubernetes-validations). Each message is the seed's text, taken from api/validation-messages.ts,
// so `kubectl apply` without the webhook still answers in the seed's words. "Provider CRD not installed"
// needs cluster state and the servedName rule is only a warning; both stay in api/validate.ts.
//
// The rules run after CRD defaulting, but every field is still guarded with has(): defaults apply only
// where a parent object exists, and a rule must not fail with "no such key" instead of its message.

import { GPU_ENGINES, ValidationMessage } from '../validation-messages.ts';
import type { CelValidationRule } from './schema-types.ts';

const disaggregated = `(has(self.serving) && has(self.serving.mode) && self.serving.mode == 'disaggregated')`;
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

function engineGpuRules(): CelValidationRule[] {
  return Object.entries(GPU_ENGINES).map(([engine, displayName]) => ({
    rule: `!(has(self.engine) && has(self.engine.type) && self.engine.type == '${engine}' && !${disaggregated} && ${noResourceGpu})`,
    message: ValidationMessage.engineRequiresGpu(displayName ?? engine),
    fieldPath: '.resources.gpu.count',
    reason: 'FieldValueInvalid' as const,
  }));
}

export const specCelRules: readonly CelValidationRule[] = [
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
];
