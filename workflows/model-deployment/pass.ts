import type { ConditionInput, CoreStatus, DeploymentSnapshot } from '../../contract/core-activities.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { ApplyOutcome, ObservedStatus } from '../../contract/provider-activities.ts';
import { runCleanup } from './cleanup.ts';
import { leaveOldProvider } from './switch-provider.ts';
import type { DeploymentState } from './deployment-state.ts';
import type { PassEnd } from '../engine/reconcile-loop.ts';
import { toMs } from '../engine/durations.ts';

const EXPLICIT_SELECTION = 'explicit provider selection';
/** Patch ID (see `ObjectReconciler.takes`): a pass woken only by the provider's resource runs only the provider's call. */
const RESOURCE_CHANGE_SKIPS_ASSESSMENT = 'resource-change-skips-assessment';
/**
 * Patch ID, code level 3: the core's conditions and `status.provider` are written before the provider's
 * call whenever the object does not show them yet, so a deployment never shows a blank status after its
 * first pass, however long the provider takes to answer (or whether any worker serves it at all).
 */
const CORE_STATUS_BEFORE_PROVIDER = 'core-status-before-provider';
/** Patch ID, code level 3: the Validated condition's message lists validation's warnings. */
const VALIDATION_WARNINGS_SHOWN = 'validation-warnings-shown';

/**
 * One level-triggered pass over the live object: each step reads it through an activity (from the
 * worker's cache when that is new enough); the pass ends by saying how long it may wait before the
 * next one (any signal cuts the wait short).
 */
export async function runPass(state: DeploymentState): Promise<PassEnd> {
  const settledOn = state.view.provider;
  if (state.fewerRoundTrips && state.onlyResourceChanged && settledOn && state.takes(RESOURCE_CHANGE_SKIPS_ASSESSMENT)) {
    // Only the provider's resource changed since a settled pass (its operator's status, an edit, a
    // deletion): the provider's one call observes it, restores it if edited, recreates it if gone. Any
    // change of the object itself, a retry or the resync timer brings the whole pass back.
    state.at('apply');
    const outcome = await state.reconcileResource(settledOn, state.readRef());
    // The provider found no object (deleted without our finalizer): the whole pass decides what ends.
    if (outcome.observed.phase !== 'Terminating') return afterProvider(state, settledOn, outcome.apply, outcome.observed);
  }
  state.at('read');
  // Read, finalizer, validation and selection as one local activity where the history allows it; the
  // pass below then finds their results instead of running them one by one.
  const assessed = state.fewerRoundTrips ? await state.core.assessDeployment(state.readRef(), { selectorEnabled: state.settings.providerSelectorEnabled }) : undefined;
  const snap = assessed ? assessed.snapshot : await state.core.readDeployment(state.readRef());
  if (assessed?.inProcessProviders) state.inProcessProviders = new Set(assessed.inProcessProviders);
  if (!snap || snap.uid !== state.ref.uid) return { done: true };
  // Every later step of this pass reads the object at least as new as this first read saw it.
  const ref = snap.resourceVersion ? { ...state.ref, seenVersion: snap.resourceVersion } : state.ref;
  state.view.observedGeneration = snap.generation;
  state.view.provider = snap.selectedProvider ?? state.view.provider;

  if (snap.deletionTimestamp) {
    if (snap.hasFinalizer) await runCleanup(state, snap);
    return { done: true };
  }

  // What the core already owns stays owned: SSA would remove a field the core leaves out.
  const recorded = snap.selectedProvider ? { name: snap.selectedProvider, selectedReason: snap.selectedReason ?? '' } : undefined;
  const base: CoreStatus = { provider: recorded };
  // Passes that end before the provider runs report the generation they judged.
  const stopped: CoreStatus = { ...base, observedGeneration: snap.generation };
  if (snap.paused) {
    state.view.paused = true;
    state.at('paused', 'the pause annotation to be removed');
    // Nothing changes while paused: the core's conditions are written back as they are.
    await state.writeCore({
      ...stopped,
      validated: state.coreStatus?.validated ?? snap.validated,
      providerSelected: state.coreStatus?.providerSelected ?? snap.providerSelected,
      phase: state.coreStatus?.phase,
      paused: { status: 'True', reason: 'ReconcilePaused', message: 'Reconciliation is paused by annotation kubeairunway.ai/reconcile-paused' },
    });
    return { done: false, afterMs: state.resyncMs() };
  }
  state.view.paused = false;

  if (!snap.hasFinalizer && !assessed) {
    state.at('finalizer');
    await state.core.addFinalizer(ref);
  }

  state.at('validate');
  const validation = assessed?.validation ?? (await state.core.validateDeployment(ref));
  if (!validation.valid) {
    const message = validation.message ?? 'Validation failed';
    state.at('validate', validation.waitingFor ?? 'a valid spec');
    return waitPending(state, message, {
      ...stopped,
      validated: { status: 'False', reason: 'ValidationFailed', message },
      // From the object when this run never wrote it: SSA would remove a condition the apply leaves out.
      providerSelected: state.coreStatus?.providerSelected ?? snap.providerSelected,
    });
  }
  // What validation warns about (a spec it admits but part of which cannot work) stays visible in
  // `kubectl get/describe`, not only at admission. Patched: the message changes the core's status write.
  const warned = validation.warnings.length > 0 && state.takes(VALIDATION_WARNINGS_SHOWN, 3);
  const validated = { status: 'True' as const, reason: 'ValidationPassed', message: warned ? `Spec validation passed with warnings: ${validation.warnings.join('; ')}` : 'Spec validation passed' };

  let provider = snap.selectedProvider;
  if (provider && snap.explicitProvider && snap.explicitProvider !== provider) {
    const ctx = { stopped, validated, resource: snap.resource, leaving: assessed?.leaving };
    if (!(await leaveOldProvider(state, ref, provider, snap.explicitProvider, ctx))) return { done: false, afterMs: toMs(state.settings.pollInterval) };
    provider = undefined;
  } else {
    // No switch pending (none began, or the spec went back before it ended): a later switch gets its own deadline.
    state.switchSince = undefined;
  }

  let selection = provider ? recorded : undefined;
  if (!provider) {
    state.at('select-provider');
    const outcome = assessed?.selection ?? (await state.core.selectProvider(ref, { selectorEnabled: state.settings.providerSelectorEnabled }));
    if (!outcome.provider) {
      const message = outcome.message ?? 'No provider selected';
      state.at('select-provider', 'a provider');
      return waitPending(state, message, { ...stopped, provider: undefined, validated, providerSelected: { status: 'False', reason: outcome.reason, message } });
    }
    provider = outcome.provider;
    selection = { name: provider, selectedReason: outcome.reason };
  }
  state.view.provider = provider;
  const selected: CoreStatus = {
    ...base,
    provider: selection,
    validated,
    providerSelected: {
      status: 'True',
      reason: selection?.selectedReason === EXPLICIT_SELECTION ? 'ExplicitSelection' : 'AutoSelected',
      message: selection?.selectedReason ?? '',
    },
  };
  if (!state.fewerRoundTrips) return providerAsRecorded(state, provider, ref, selected);
  state.at('apply');
  // The resource first: the core's own status write (the selection it made) follows the provider's
  // call instead of holding back the workflow task that schedules it. Should the call fail, the
  // failure's Pending status is written with this selection in it. Unless the object does not show
  // the selection yet (a new deployment, a switch, a new generation): then it is written first.
  if (!showsSelection(snap, selected) && state.takes(CORE_STATUS_BEFORE_PROVIDER, 3)) {
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

/**
 * The commands of histories recorded before FEWER_ROUND_TRIPS: the core's status first, then three
 * calls on the provider's queue (compatibility, apply, observe).
 */
async function providerAsRecorded(state: DeploymentState, provider: string, ref: ReadRef, selected: CoreStatus): Promise<PassEnd> {
  await state.writeCore(selected, ref);
  state.publish();
  const acts = state.provider(provider);
  state.at('compatibility');
  const compatibility = await acts.checkCompatibility(ref);
  let applied: ApplyOutcome | undefined;
  if (compatibility.compatible) {
    state.at('apply');
    applied = await acts.applyResource(ref);
  }
  state.at('observe');
  return afterProvider(state, provider, applied, await acts.observeResource(ref));
}

/** What the provider's steps leave the deployment waiting for; `applied` is undefined for an incompatible spec. */
function afterProvider(state: DeploymentState, provider: string, applied: ApplyOutcome | undefined, observed: ObservedStatus): PassEnd {
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
async function waitPending(state: DeploymentState, message: string, core: CoreStatus): Promise<PassEnd> {
  state.view.phase = 'Pending';
  state.view.message = message;
  await state.writeCore({ ...core, phase: { phase: 'Pending', message } });
  return { done: false, afterMs: state.resyncMs() };
}
