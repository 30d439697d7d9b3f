// What a completed reconciliation step means for metrics and logs. Some steps complete normally yet
// report a problem the workflow then waits on (an invalid spec, no provider, a missing CRD): those count
// as reconciliation errors too, with a type an operator can alert on.

import type { DeploymentSnapshot, SelectionOutcome, ValidationOutcome } from '../activities/core/types.ts';
import type { ApplyOutcome, CompatibilityOutcome, ObservedStatus } from '../activities/provider/types.ts';

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
    case 'checkCompatibility': {
      const c = result as CompatibilityOutcome;
      return c.compatible ? { fields: {} } : { errorType: 'IncompatibleConfiguration', summary: c.errors.join('; '), fields: { errors: c.errors } };
    }
    case 'applyResource': {
      const a = result as ApplyOutcome;
      const resource = a.resource ? `${a.resource.kind} '${a.resource.name}'` : undefined;
      const fields = { result: a.result, ...(resource ? { resource } : {}) };
      if (a.result === 'crd-missing') return { errorType: 'CRDNotInstalled', summary: 'provider CRD not installed', fields };
      return { summary: resource ? `${a.result} ${resource}` : a.result, fields };
    }
    case 'observeResource': {
      const o = result as ObservedStatus;
      const fields = { phase: o.phase, ready: o.ready };
      if (o.phase === 'Failed') return { errorType: 'ProviderError', summary: o.message ?? 'provider resource failed', fields: { ...fields, message: o.message } };
      return { summary: `phase ${o.phase}${o.ready ? ', ready' : ''}${o.message ? `: ${o.message}` : ''}`, fields };
    }
    default:
      return { fields: {} };
  }
}
