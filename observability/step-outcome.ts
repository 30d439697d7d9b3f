// What a completed reconciliation step means for metrics and logs. Some steps complete normally yet
// report a problem the workflow then waits on (an invalid spec, no provider, a missing CRD): those count
// as reconciliation errors too, with a type an operator can alert on.

import type { Assessment, DeploymentSnapshot, SelectionOutcome, ValidationOutcome } from '../contract/core-activities.ts';
import type { FlameApplyOutcome } from '../contract/flame-activities.ts';
import type { ApplyOutcome, CompatibilityOutcome, ObservedStatus, ReconcileOutcome } from '../contract/provider-activities.ts';
import type { FlameClusterStatus } from '../api/flame/types.ts';

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
    case 'readDeployment':
      return readOutcome(result as DeploymentSnapshot);
    case 'validateDeployment':
      return validationOutcome(result as ValidationOutcome);
    case 'selectProvider':
      return selectionOutcome(result as SelectionOutcome);
    case 'assessDeployment': {
      const a = result as Assessment;
      if (!a.snapshot) return { summary: 'the deployment is gone', fields: {} };
      const steps = [readOutcome(a.snapshot), ...(a.finalizerAdded ? [{ summary: 'finalizer added', fields: {} }] : [])];
      if (a.validation) steps.push(validationOutcome(a.validation));
      if (a.selection) steps.push(selectionOutcome(a.selection));
      return combined(steps);
    }
    case 'checkCompatibility':
      return compatibilityOutcome(result as CompatibilityOutcome);
    case 'applyResource':
      return applyOutcome(result as ApplyOutcome);
    case 'observeResource':
      return observeOutcome(result as ObservedStatus);
    case 'reconcileResource': {
      const r = result as ReconcileOutcome;
      return combined([compatibilityOutcome(r.compatibility), ...(r.apply ? [applyOutcome(r.apply)] : []), observeOutcome(r.observed)]);
    }
    case 'applyFlameCluster':
      return flameApplyOutcome(result as FlameApplyOutcome);
    case 'reportFlameStatus': {
      const status = result as FlameClusterStatus;
      const fields = { state: status.state, ready: status.executorManager?.ready, replicas: status.executorManager?.replicas };
      if (status.state === 'Failed') return { errorType: 'FlameClusterFailed', summary: status.message, fields: { ...fields, message: status.message } };
      return { summary: `state ${status.state}${status.message ? `: ${status.message}` : ''}`, fields };
    }
    default:
      return { fields: {} };
  }
}

function flameApplyOutcome(a: FlameApplyOutcome): StepOutcome {
  if (!a.found) return { summary: 'the cluster is gone', fields: {} };
  if (a.deleting) return { summary: 'being deleted (the garbage collector removes its children)', fields: {} };
  if (a.paused) return { summary: 'paused', fields: { paused: true } };
  if (a.invalid) return { errorType: 'InvalidSpec', summary: a.invalid, fields: { message: a.invalid } };
  const fields = { generation: a.generation, configGeneration: a.configGeneration, changes: a.changes.length };
  const summary = [a.changes.length > 0 ? a.changes.join('; ') : 'nothing to change', ...(a.waitingFor ? [`waiting for ${a.waitingFor}`] : [])].join('; ');
  return { summary, fields };
}

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
