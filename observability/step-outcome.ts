// What a completed reconciliation step means for metrics and logs. Some steps complete normally yet
// report a problem the workflow then waits on (an invalid spec, no provider, a missing CRD): those count
// as reconciliation errors too, with a type an operator can alert on.

import type { DeploymentSnapshot, SelectionOutcome, ValidationOutcome } from '../activities/core/types.ts';
import type { ApplyOutcome, CompatibilityOutcome, ObservedStatus, ReconcileOutcome } from '../activities/provider/types.ts';

export interface StepOutcome {
  /** The deployment's provider, when the step's result names it. */
  provider?: string;
  /** A provider selection to count. */
  selected?: { provider: string; reason: string };
  /** Set when the step reports a problem without failing. */
  errorType?: string;
  /** A few words for the log line. */
  summary?: string;
  /** Structured log fields. */
  fields: Record<string, unknown>;
}

export function stepOutcome(activity: string, result: unknown): StepOutcome {
  if (result === null || result === undefined || typeof result !== 'object') return { fields: {} };
  switch (activity) {
    case 'readDeployment': {
      const snap = result as DeploymentSnapshot;
      return { provider: snap.selectedProvider, fields: { generation: snap.generation, paused: snap.paused, deleting: Boolean(snap.deletionTimestamp) } };
    }
    case 'validateDeployment': {
      const v = result as ValidationOutcome;
      return v.valid ? { fields: {} } : { errorType: 'ValidationFailed', summary: v.message ?? 'invalid spec', fields: { message: v.message } };
    }
    case 'selectProvider': {
      const s = result as SelectionOutcome;
      if (!s.provider) return { errorType: s.reason, summary: s.message ?? 'no provider selected', fields: { reason: s.reason } };
      return { provider: s.provider, selected: { provider: s.provider, reason: s.reason }, summary: `selected '${s.provider}' (${s.reason})`, fields: { selected: s.provider, reason: s.reason } };
    }
    case 'checkCompatibility':
      return compatibilityOutcome(result as CompatibilityOutcome);
    case 'applyResource':
      return applyOutcome(result as ApplyOutcome);
    case 'observeResource':
      return observeOutcome(result as ObservedStatus);
    case 'reconcileResource': {
      // The first of its steps that reports a problem speaks for the call; the log line keeps all three.
      const r = result as ReconcileOutcome;
      const steps = [compatibilityOutcome(r.compatibility), ...(r.apply ? [applyOutcome(r.apply)] : []), observeOutcome(r.observed)];
      const fields = Object.assign({}, ...steps.map((s) => s.fields)) as Record<string, unknown>;
      const problem = steps.find((s) => s.errorType);
      if (problem) return { ...problem, fields };
      return { summary: steps.map((s) => s.summary).filter(Boolean).join('; '), fields };
    }
    default:
      return { fields: {} };
  }
}

function compatibilityOutcome(c: CompatibilityOutcome): StepOutcome {
  return c.compatible ? { fields: {} } : { errorType: 'IncompatibleConfiguration', summary: c.errors.join('; '), fields: { errors: c.errors } };
}

function applyOutcome(a: ApplyOutcome): StepOutcome {
  const resource = a.resource ? `${a.resource.kind} '${a.resource.name}'` : undefined;
  const fields = { result: a.result, ...(resource ? { resource } : {}) };
  if (a.result === 'crd-missing') return { errorType: 'CRDNotInstalled', summary: 'provider CRD not installed', fields };
  return { summary: resource ? `${a.result} ${resource}` : a.result, fields };
}

function observeOutcome(o: ObservedStatus): StepOutcome {
  const fields = { phase: o.phase, ready: o.ready };
  if (o.phase === 'Failed') return { errorType: 'ProviderError', summary: o.message ?? 'provider resource failed', fields: { ...fields, message: o.message } };
  return { summary: `phase ${o.phase}${o.ready ? ', ready' : ''}${o.message ? `: ${o.message}` : ''}`, fields };
}
