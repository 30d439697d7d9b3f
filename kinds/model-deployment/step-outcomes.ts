// What ModelDeployment steps (the core's and its providers') mean for metrics and logs
// (observability/step-outcome.ts). Some complete normally yet report a problem the workflow then waits
// on (an invalid spec, no provider, a missing CRD): those count as reconciliation errors too.

import type { Assessment, DeploymentSnapshot, SelectionOutcome, ValidationOutcome } from '../../contract/core-activities.ts';
import type { ApplyOutcome, CompatibilityOutcome, ObservedStatus, ReconcileOutcome } from '../../contract/provider-activities.ts';
import type { StepOutcome, StepOutcomeReader } from '../../observability/step-outcome.ts';

export const modelDeploymentStepOutcomes: Readonly<Record<string, StepOutcomeReader>> = {
  readDeployment: (result) => readOutcome(result as DeploymentSnapshot),
  validateDeployment: (result) => validationOutcome(result as ValidationOutcome),
  selectProvider: (result) => selectionOutcome(result as SelectionOutcome),
  assessDeployment: (result) => {
    const a = result as Assessment;
    if (!a.snapshot) return { summary: 'the deployment is gone', fields: {} };
    const steps = [readOutcome(a.snapshot), ...(a.finalizerAdded ? [{ summary: 'finalizer added', fields: {} }] : [])];
    if (a.validation) steps.push(validationOutcome(a.validation));
    if (a.selection) steps.push(selectionOutcome(a.selection));
    return combined(steps);
  },
  reconcileResource: (result) => {
    const r = result as ReconcileOutcome;
    return combined([compatibilityOutcome(r.compatibility), ...(r.apply ? [applyOutcome(r.apply)] : []), observeOutcome(r.observed)]);
  },
};

/** Several steps in one call: the first that reports a problem speaks for it; the log line keeps every field. */
function combined(steps: StepOutcome[]): StepOutcome {
  const fields = Object.assign({}, ...steps.map((s) => s.fields)) as Record<string, unknown>;
  const provider = steps.map((s) => s.provider).filter(Boolean).at(-1);
  const selected = steps.find((s) => s.selected)?.selected;
  const known = { ...(provider ? { provider } : {}), ...(selected ? { selected } : {}) };
  const problem = steps.find((s) => s.errorType);
  if (problem) return { ...problem, ...known, fields };
  return { ...known, summary: steps.map((s) => s.summary).filter(Boolean).join('; '), fields };
}

function readOutcome(snap: DeploymentSnapshot): StepOutcome {
  return { provider: snap.selectedProvider, fields: { generation: snap.generation, paused: snap.paused, deleting: Boolean(snap.deletionTimestamp) } };
}

function validationOutcome(v: ValidationOutcome): StepOutcome {
  // Warnings (unknown override keys among them, seed 001 §4.15) reach the step log.
  const warnings = v.warnings?.length ? { warnings: v.warnings } : {};
  if (!v.valid) return { errorType: 'ValidationFailed', summary: v.message ?? 'invalid spec', fields: { message: v.message, ...warnings } };
  return { ...(v.warnings?.length ? { summary: `warnings: ${v.warnings.join('; ')}` } : {}), fields: warnings };
}

function selectionOutcome(s: SelectionOutcome): StepOutcome {
  if (!s.provider) return { errorType: s.reason, summary: s.message ?? 'no provider selected', fields: { reason: s.reason } };
  return { provider: s.provider, selected: { provider: s.provider, reason: s.reason }, summary: `selected '${s.provider}' (${s.reason})`, fields: { selected: s.provider, reason: s.reason } };
}

function compatibilityOutcome(c: CompatibilityOutcome): StepOutcome {
  return c.compatible ? { fields: {} } : { errorType: 'IncompatibleConfiguration', summary: c.errors.join('; '), fields: { errors: c.errors } };
}

function applyOutcome(a: ApplyOutcome): StepOutcome {
  const resource = a.resource ? `${a.resource.kind} '${a.resource.name}'` : undefined;
  const fields = { result: a.result, ...(resource ? { resource } : {}) };
  if (a.result === 'crd-missing') return { errorType: 'CRDNotInstalled', summary: 'provider CRD not installed', fields };
  if (a.result === 'refused') return { errorType: 'ResourceRefused', summary: a.refusal ?? 'refused by the provider CRD', fields };
  return { summary: resource ? `${a.result} ${resource}` : a.result, fields };
}

function observeOutcome(o: ObservedStatus): StepOutcome {
  const fields = { phase: o.phase, ready: o.ready };
  if (o.phase === 'Failed') return { errorType: 'ProviderError', summary: o.message ?? 'provider resource failed', fields: { ...fields, message: o.message } };
  return { summary: `phase ${o.phase}${o.ready ? ', ready' : ''}${o.message ? `: ${o.message}` : ''}`, fields };
}
