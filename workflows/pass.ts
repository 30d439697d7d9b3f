import type { CoreStatus } from '../activities/core/types.ts';
import { coreActivities } from './activity-proxies.ts';
import { runCleanup } from './cleanup.ts';
import type { DeploymentState, PassEnd } from './deployment-state.ts';
import { toMs } from './durations.ts';

const EXPLICIT_SELECTION = 'explicit provider selection';

/**
 * One level-triggered pass over the live object: each step re-reads it through an activity; the pass
 * ends by saying how long it may wait before the next one (any signal cuts the wait short).
 */
export async function runPass(state: DeploymentState): Promise<PassEnd> {
  state.at('read');
  const snap = await coreActivities.readDeployment(state.ref);
  if (!snap || snap.uid !== state.ref.uid) return { done: true };
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
    return { done: false, afterMs: toMs(state.settings.resyncPeriod) };
  }
  state.view.paused = false;

  if (!snap.hasFinalizer) {
    state.at('finalizer');
    await coreActivities.addFinalizer(state.ref);
  }

  state.at('validate');
  const validation = await coreActivities.validateDeployment(state.ref);
  if (!validation.valid) {
    const message = validation.message ?? 'Validation failed';
    state.at('validate', 'a valid spec');
    return waitPending(state, message, {
      ...stopped,
      validated: { status: 'False', reason: 'ValidationFailed', message },
      providerSelected: state.coreStatus?.providerSelected,
    });
  }
  const validated = { status: 'True' as const, reason: 'ValidationPassed', message: 'Spec validation passed' };

  // An explicit provider different from the selected one is an identity change: the old provider
  // removes its resources before the new one is recorded.
  let provider = snap.selectedProvider;
  if (provider && snap.explicitProvider && snap.explicitProvider !== provider) {
    state.at('switch-provider', `provider '${provider}' to remove its resources`);
    const result = await state.provider(provider).cleanupResources(state.ref);
    if (!result.gone) return { done: false, afterMs: toMs(state.settings.pollInterval) };
    provider = undefined;
  }

  let selection = provider ? recorded : undefined;
  if (!provider) {
    state.at('select-provider');
    const outcome = await coreActivities.selectProvider(state.ref, { selectorEnabled: state.settings.providerSelectorEnabled });
    if (!outcome.provider) {
      const message = outcome.message ?? 'No provider selected';
      state.at('select-provider', 'a provider');
      return waitPending(state, message, { ...stopped, provider: undefined, validated, providerSelected: { status: 'False', reason: outcome.reason, message } });
    }
    provider = outcome.provider;
    selection = { name: provider, selectedReason: outcome.reason };
  }
  state.view.provider = provider;
  await state.writeCore({
    ...base,
    provider: selection,
    validated,
    providerSelected: {
      status: 'True',
      reason: selection?.selectedReason === EXPLICIT_SELECTION ? 'ExplicitSelection' : 'AutoSelected',
      message: selection?.selectedReason ?? '',
    },
  });
  state.publish();

  const acts = state.provider(provider);
  state.at('compatibility');
  const compatibility = await acts.checkCompatibility(state.ref);
  if (compatibility.compatible) {
    state.at('apply');
    const applied = await acts.applyResource(state.ref);
    state.at('observe');
    const observed = await acts.observeResource(state.ref);
    state.view.phase = observed.phase;
    state.view.message = observed.message;
    switch (applied.result) {
      case 'crd-missing':
        state.at('apply', `the CRD of provider '${provider}' to be installed`);
        return { done: false, afterMs: Math.min(toMs(state.settings.resyncPeriod), 60_000) };
      case 'recreating':
      case 'waiting-for-deletion':
        state.at('apply', 'the old provider resource to be deleted');
        return { done: false, afterMs: toMs(state.settings.pollInterval) };
      default:
        state.at('idle');
        return { done: false, afterMs: toMs(state.settings.resyncPeriod) };
    }
  }
  state.at('observe');
  const observed = await acts.observeResource(state.ref);
  state.view.phase = observed.phase;
  state.view.message = observed.message;
  state.at('compatibility', 'a spec this provider supports');
  return { done: false, afterMs: toMs(state.settings.resyncPeriod) };
}

/**
 * The core stops the pass itself and says why in status (phase Pending with the message), then waits
 * for a change: any edit of the object, or of what it waits for, wakes the workflow by watch.
 */
async function waitPending(state: DeploymentState, message: string, core: CoreStatus): Promise<PassEnd> {
  state.view.phase = 'Pending';
  state.view.message = message;
  await state.writeCore({ ...core, phase: { phase: 'Pending', message } });
  return { done: false, afterMs: toMs(state.settings.resyncPeriod) };
}
