import type { Assessment, ConditionInput, CoreStatus, DeploymentSnapshot, ValidationOutcome } from '../../contract/core-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { ApplyOutcome, ObservedStatus } from '../../contract/provider-activities.ts';
import { runCleanup } from './cleanup.ts';
import { leaveOldProvider, type SwitchContext } from './switch-provider.ts';
import type { PassState } from './pass-state.ts';
import type { PassEnd } from '../engine/reconcile-loop.ts';
import { toMs } from '../engine/durations.ts';

const EXPLICIT_SELECTION = 'explicit provider selection';

/** The provider status records and why it was chosen, as the core writes it. */
type Selection = NonNullable<CoreStatus['provider']>;

/**
 * One level-triggered pass over the live object: the assessment (read, finalizer, validation and
 * selection in one local activity), then the provider's one call; the pass ends by saying how long
 * it may wait before the next one (any signal cuts the wait short).
 */
export async function runPass(state: PassState): Promise<PassEnd> {
  const settledOn = state.view.provider;
  if (state.onlyResourceChanged && settledOn) {
    const end = await resourcePass(state, settledOn);
    if (end) return end;
  }
  state.at('read');
  const assessed = await state.core.assessDeployment(state.readRef(), { selectorEnabled: state.settings.providerSelectorEnabled });
  const snap = assessed.snapshot;
  if (assessed.inProcessProviders) state.inProcessProviders = new Set(assessed.inProcessProviders);
  if (!snap || snap.uid !== state.ref.uid) return { done: true };
  // Every later step of this pass reads the object at least as new as the assessment saw it.
  const ref = snap.resourceVersion ? { ...state.ref, seenVersion: snap.resourceVersion } : state.ref;
  state.view.observedGeneration = snap.generation;
  state.view.provider = snap.selectedProvider ?? state.view.provider;

  if (snap.deletionTimestamp) {
    if (snap.hasFinalizer) await runCleanup(state, snap);
    return { done: true };
  }

  // What the core already owns stays owned: SSA would remove a field the core leaves out. Passes that
  // end before the provider runs report the generation they judged.
  const recorded = snap.selectedProvider ? { name: snap.selectedProvider, selectedReason: snap.selectedReason ?? '' } : undefined;
  const stopped: CoreStatus = { provider: recorded, observedGeneration: snap.generation };
  if (snap.paused) return holdPaused(state, snap, stopped);
  state.view.paused = false;

  state.at('validate');
  // The assessment validates every object it finds neither deleting nor paused; its type cannot say so.
  const validation = assessed.validation ?? (await state.core.validateDeployment(ref));
  if (!validation.valid) return refuseInvalid(state, snap, stopped, validation);
  const validated = validatedCondition(validation);

  let keep = recorded;
  if (recorded && snap.explicitProvider && snap.explicitProvider !== recorded.name) {
    const ctx: SwitchContext = { stopped, validated, resource: snap.resource, leaving: assessed.leaving };
    if (!(await leaveOldProvider(state, ref, recorded.name, snap.explicitProvider, ctx))) return { done: false, afterMs: toMs(state.settings.pollInterval) };
    keep = undefined;
  } else {
    // No switch pending (none began, or the spec went back before it ended): a later switch gets its own deadline.
    state.switchSince = undefined;
  }
  const selection = keep ?? (await selectProvider(state, ref, assessed, stopped, validated));
  if ('done' in selection) return selection;
  return callProvider(state, ref, snap, selection.name, selectedStatus(selection, validated));
}

/**
 * The short pass: only the provider's resource changed since a settled pass (its operator's status,
 * an edit, a deletion), so the provider's one call observes it, restores it if edited, recreates it
 * if gone. Any change of the object itself, a retry or the resync timer brings the whole pass back.
 * Undefined when the provider found no object (deleted without our finalizer): the whole pass decides.
 */
async function resourcePass(state: PassState, provider: string): Promise<PassEnd | undefined> {
  state.at('apply');
  const outcome = await state.reconcileResource(provider, state.readRef());
  if (outcome.observed.phase === 'Terminating') return undefined;
  return afterProvider(state, provider, outcome.apply, outcome.observed);
}

/** Paused: nothing changes, the core's conditions are written back as they are, with ReconcilePaused. */
async function holdPaused(state: PassState, snap: DeploymentSnapshot, stopped: CoreStatus): Promise<PassEnd> {
  state.view.paused = true;
  state.at('paused', 'the pause annotation to be removed');
  await state.writeCore({
    ...stopped,
    validated: state.coreStatus?.validated ?? snap.validated,
    providerSelected: state.coreStatus?.providerSelected ?? snap.providerSelected,
    phase: state.coreStatus?.phase,
    paused: { status: 'True', reason: 'ReconcilePaused', message: 'Reconciliation is paused by annotation kubeairunway.ai/reconcile-paused' },
  });
  return { done: false, afterMs: state.resyncMs() };
}

/** An invalid spec: Validated False, phase Pending, until an edit makes it valid. */
function refuseInvalid(state: PassState, snap: DeploymentSnapshot, stopped: CoreStatus, validation: ValidationOutcome): Promise<PassEnd> {
  const message = validation.message ?? 'Validation failed';
  state.at('validate', validation.waitingFor ?? 'a valid spec');
  return waitPending(state, message, {
    ...stopped,
    validated: { status: 'False', reason: 'ValidationFailed', message },
    // From the object when this run never wrote it: SSA would remove a condition the apply leaves out.
    providerSelected: state.coreStatus?.providerSelected ?? snap.providerSelected,
  });
}

/**
 * Validated True. What validation warns about (a spec it admits but part of which cannot work) stays
 * visible in `kubectl get/describe`, not only at admission.
 */
function validatedCondition(validation: ValidationOutcome): ConditionInput {
  const warned = validation.warnings.length > 0;
  return { status: 'True', reason: 'ValidationPassed', message: warned ? `Spec validation passed with warnings: ${validation.warnings.join('; ')}` : 'Spec validation passed' };
}

/** The selector's choice (from the assessment, or asked after a switch); a pass that waits when it finds none. */
async function selectProvider(state: PassState, ref: ReadRef, assessed: Assessment, stopped: CoreStatus, validated: ConditionInput): Promise<Selection | PassEnd> {
  state.at('select-provider');
  const outcome = assessed.selection ?? (await state.core.selectProvider(ref, { selectorEnabled: state.settings.providerSelectorEnabled }));
  if (outcome.provider) return { name: outcome.provider, selectedReason: outcome.reason };
  const message = outcome.message ?? 'No provider selected';
  state.at('select-provider', 'a provider');
  return waitPending(state, message, { ...stopped, provider: undefined, validated, providerSelected: { status: 'False', reason: outcome.reason, message } });
}

function selectedStatus(selection: Selection, validated: ConditionInput): CoreStatus {
  const reason = selection.selectedReason === EXPLICIT_SELECTION ? 'ExplicitSelection' : 'AutoSelected';
  return { provider: selection, validated, providerSelected: { status: 'True', reason, message: selection.selectedReason } };
}

/**
 * The provider's one call, and the core's status around it. The resource first: the core's own status
 * write follows the call instead of holding back the workflow task that schedules it (should the call
 * fail, the failure's Pending status carries this selection). Unless the object does not show the
 * selection yet (a new deployment, a switch, a new generation): then it is written first, so a
 * deployment never shows a blank status however long the provider takes to answer.
 */
async function callProvider(state: PassState, ref: ReadRef, snap: DeploymentSnapshot, provider: string, selected: CoreStatus): Promise<PassEnd> {
  state.view.provider = provider;
  state.at('apply');
  if (!showsSelection(snap, selected)) {
    // A phase the core wrote itself (a switch's wait, an unavailable provider) stays until the
    // provider has written its own: released before, it would leave the phase blank meanwhile.
    const held = state.coreStatus?.phase;
    await state.writeCore(held ? { ...selected, phase: held } : selected, ref);
  }
  state.coreStatus = selected;
  const outcome = await state.reconcileResource(provider, ref);
  await state.writeCore(selected, ref);
  return afterProvider(state, provider, outcome.apply, outcome.observed);
}

/** What the provider's call leaves the deployment waiting for; `applied` is undefined for an incompatible spec. */
function afterProvider(state: PassState, provider: string, applied: ApplyOutcome | undefined, observed: ObservedStatus): PassEnd {
  state.view.phase = observed.phase;
  state.view.message = observed.message;
  switch (applied?.result) {
    case undefined:
      return state.wait('compatibility', 'a spec this provider supports');
    case 'crd-missing':
      return state.wait('apply', `the CRD of provider '${provider}' to be installed`, Math.min(state.resyncMs(), 60_000));
    case 'refused':
      // The resource this spec renders does not fit the provider's CRD: said in status (Failed) by the
      // provider. An edit of the spec, the provider's config or its CRD wakes the workflow by watch.
      return state.wait('apply', `a spec whose ${applied.resource?.kind ?? 'resource'} the provider's CRD accepts`);
    case 'recreating':
    case 'waiting-for-deletion':
      return state.wait('apply', 'the old provider resource to be deleted', toMs(state.settings.pollInterval));
    default:
      return state.wait('idle', undefined);
  }
}

/** Whether the object's status already shows the selection and validation the core is about to write. */
function showsSelection(snap: DeploymentSnapshot, selected: CoreStatus): boolean {
  const same = (a: ConditionInput | undefined, b: ConditionInput | undefined) => a?.status === b?.status && a?.reason === b?.reason && a?.message === b?.message;
  return snap.selectedProvider === selected.provider?.name && (snap.selectedReason ?? '') === (selected.provider?.selectedReason ?? '') && same(snap.validated, selected.validated) && same(snap.providerSelected, selected.providerSelected);
}

/**
 * The core stops the pass itself and says why in status (phase Pending with the message), then waits
 * for a change: any edit of the object, or of what it waits for, wakes the workflow by watch.
 */
async function waitPending(state: PassState, message: string, core: CoreStatus): Promise<PassEnd> {
  state.view.phase = 'Pending';
  state.view.message = message;
  await state.writeCore({ ...core, phase: { phase: 'Pending', message } });
  return { done: false, afterMs: state.resyncMs() };
}
