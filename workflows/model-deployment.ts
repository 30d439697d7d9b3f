import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setHandler,
  TimeoutFailure,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { CoreActivities, CoreStatus, DeploymentSnapshot } from '../activities/core/types.ts';
import type { ProviderActivities } from '../activities/provider/types.ts';
import { events } from '../api/messages.ts';
import { reconcileSignal, retrySignal, retryUpdate, viewQuery } from './definitions.ts';
import { backoffMs, toMs } from './durations.ts';
import type { DeploymentRef } from './ids.ts';
import { MdName, MdNamespace, MdPhase, MdProvider } from './search-attributes.ts';
import { DEFAULT_SETTINGS, providerTaskQueue, type ReconcileSettings } from './settings.ts';
import type { DeploymentView, RetryResult, Step, StepError } from './view.ts';

export interface ModelDeploymentInput {
  ref: DeploymentRef;
  settings?: Partial<ReconcileSettings>;
  /** State carried across continue-as-new. */
  carried?: CarriedState;
}

interface CarriedState {
  view: DeploymentView;
  core: CoreStatus | undefined;
  lastCoreWrite: string | undefined;
}

/** How a pass ended: stop (object gone), or wait for a signal or at most `afterMs`. */
type PassEnd = { done: true } | { done: false; afterMs: number };

const ACTIVITY_RETRY = {
  initialInterval: '1s',
  backoffCoefficient: 2,
  maximumInterval: '10s',
  maximumAttempts: 5,
  nonRetryableErrorTypes: ['KubeInvalid', 'KubeForbidden', 'KubeNoKindMatch', 'InvalidSpec'],
};
const CORE_ACTIVITY_TIMEOUT = '30s';
const EXPLICIT_SELECTION = 'explicit provider selection';
/** Patch IDs (see `patched()`): each guards a change in the commands a workflow issues. */
const CLEANUP_CLEARS_BEFORE_ATTEMPT = 'cleanup-clears-signal-before-attempt';
const PROVIDER_ACTIVITY_TIMEOUT = '30s';

const core = proxyActivities<CoreActivities>({ startToCloseTimeout: CORE_ACTIVITY_TIMEOUT, retry: ACTIVITY_RETRY });

/**
 * One ModelDeployment incarnation's whole life: level-triggered passes that re-read the live object,
 * each woken by a watch signal, a retry, or the resync timer; deletion with a bounded cleanup.
 */
export async function modelDeploymentWorkflow(input: ModelDeploymentInput): Promise<DeploymentView> {
  const settings: ReconcileSettings = { ...DEFAULT_SETTINGS, ...input.settings };
  const { ref } = input;
  const view: DeploymentView = input.carried?.view ?? {
    namespace: ref.namespace,
    name: ref.name,
    uid: ref.uid,
    phase: undefined,
    message: undefined,
    provider: undefined,
    step: 'read',
    waitingFor: undefined,
    lastError: undefined,
    failures: 0,
    observedGeneration: undefined,
    deleting: false,
    paused: false,
    passes: 0,
  };
  let coreStatus: CoreStatus | undefined = input.carried?.core;
  let lastCoreWrite = input.carried?.lastCoreWrite;
  // Set by signals and retries; every run starts with a pass, so a new run begins clean.
  let dirty = false;
  let inPass = false;
  let memoKey = '';

  setHandler(reconcileSignal, () => {
    dirty = true;
  });
  setHandler(retrySignal, () => {
    dirty = true;
  });
  setHandler(retryUpdate, async (): Promise<RetryResult> => {
    const retried = view.lastError?.step ?? (view.waitingFor ? view.step : undefined);
    const previousError = view.lastError;
    const target = view.passes + (inPass ? 2 : 1);
    dirty = true;
    await condition(() => view.passes >= target);
    return {
      retried,
      previousError,
      outcome: view.lastError ? 'failed' : view.waitingFor ? 'waiting' : 'succeeded',
      error: view.lastError,
    };
  });
  setHandler(viewQuery, () => view);

  upsertSearchAttributes([
    { key: MdNamespace, value: ref.namespace },
    { key: MdName, value: ref.name },
  ]);

  const publish = () => {
    const key = `${view.phase}|${view.provider}|${view.step}|${view.lastError?.message}`;
    if (key === memoKey) return;
    memoKey = key;
    upsertSearchAttributes([
      { key: MdPhase, value: view.phase ?? null },
      { key: MdProvider, value: view.provider ?? null },
    ]);
    upsertMemo({
      summary: { phase: view.phase ?? null, provider: view.provider ?? null, step: view.step, lastError: view.lastError?.message ?? null },
    });
  };

  const at = (step: Step, waitingFor?: string) => {
    view.step = step;
    view.waitingFor = waitingFor;
  };

  const providerActs = (provider: string, scheduleToStartMs?: number) =>
    proxyActivities<ProviderActivities>({
      taskQueue: providerTaskQueue(settings, provider),
      scheduleToStartTimeout: scheduleToStartMs ?? settings.providerScheduleToStart,
      startToCloseTimeout: PROVIDER_ACTIVITY_TIMEOUT,
      retry: ACTIVITY_RETRY,
    });

  /** Writes the core-owned status only when it differs from what was last written. */
  const writeCore = async (next: CoreStatus) => {
    coreStatus = next;
    const serialized = JSON.stringify(next);
    if (serialized === lastCoreWrite) return;
    await core.writeCoreStatus(ref, next);
    lastCoreWrite = serialized;
  };

  const waitIdle = (): PassEnd => {
    at('idle');
    return { done: false, afterMs: toMs(settings.resyncPeriod) };
  };

  const cleanup = async (snap: DeploymentSnapshot): Promise<void> => {
    view.deleting = true;
    view.phase = 'Terminating';
    at('cleanup', 'provider resources to be deleted');
    publish();
    const deadline = (snap.deletionTimestamp ? Date.parse(snap.deletionTimestamp) : Date.now()) + toMs(settings.cleanupTimeout);
    const provider = snap.selectedProvider;
    let gone = provider === undefined;
    let remaining: string[] = provider ? [snap.resource ?? `resources of provider '${provider}'`] : [];
    // At least one attempt, even when the deadline passed while no worker was running.
    let attempts = 0;
    while (!gone && (attempts === 0 || Date.now() < deadline)) {
      attempts++;
      const left = Math.max(deadline - Date.now(), 1_000);
      // Cleared before the attempt, so a deletion reported while it runs still wakes the wait below.
      // Histories recorded before this change cleared it after the attempt (and started a timer).
      const clearBefore = patched(CLEANUP_CLEARS_BEFORE_ATTEMPT);
      if (clearBefore) dirty = false;
      try {
        const result = await providerActs(provider!, left).cleanupResources(ref);
        gone = result.gone;
        if (result.remaining.length > 0) remaining = result.remaining;
        view.lastError = undefined;
      } catch (err) {
        view.lastError = stepError('cleanup', err, provider);
      }
      publish();
      if (gone) break;
      if (!clearBefore) dirty = false;
      await condition(() => dirty, Math.min(toMs(settings.pollInterval), Math.max(deadline - Date.now(), 1)));
    }
    if (!gone) {
      await core.recordEvent(ref, {
        type: 'Warning',
        reason: 'FinalizerTimeout',
        message: `${events.finalizerTimeout().message}: ${remaining.join(', ')}`,
      });
    }
    at('cleanup', 'finalizer removal');
    await core.removeFinalizer(ref);
  };

  const pass = async (): Promise<PassEnd> => {
    at('read');
    const snap = await core.readDeployment(ref);
    if (!snap || snap.uid !== ref.uid) return { done: true };
    view.observedGeneration = snap.generation;
    view.provider = snap.selectedProvider ?? view.provider;

    if (snap.deletionTimestamp) {
      if (snap.hasFinalizer) await cleanup(snap);
      return { done: true };
    }

    // What the core already owns stays owned: SSA would remove a field the core leaves out.
    const recorded = snap.selectedProvider ? { name: snap.selectedProvider, selectedReason: snap.selectedReason ?? '' } : undefined;
    const base: CoreStatus = { provider: recorded };
    // Passes that end before the provider runs report the generation they judged.
    const stopped: CoreStatus = { ...base, observedGeneration: snap.generation };
    if (snap.paused) {
      view.paused = true;
      at('paused', 'the pause annotation to be removed');
      // Nothing changes while paused: the core's conditions are written back as they are.
      await writeCore({
        ...stopped,
        validated: coreStatus?.validated ?? snap.validated,
        providerSelected: coreStatus?.providerSelected ?? snap.providerSelected,
        phase: coreStatus?.phase,
        paused: { status: 'True', reason: 'ReconcilePaused', message: 'Reconciliation is paused by annotation kubeairunway.ai/reconcile-paused' },
      });
      return { done: false, afterMs: toMs(settings.resyncPeriod) };
    }
    view.paused = false;

    if (!snap.hasFinalizer) {
      at('finalizer');
      await core.addFinalizer(ref);
    }

    at('validate');
    const validation = await core.validateDeployment(ref);
    if (!validation.valid) {
      const message = validation.message ?? 'Validation failed';
      view.phase = 'Pending';
      view.message = message;
      at('validate', 'a valid spec');
      await writeCore({
        ...stopped,
        validated: { status: 'False', reason: 'ValidationFailed', message },
        providerSelected: coreStatus?.providerSelected,
        phase: { phase: 'Pending', message },
      });
      return { done: false, afterMs: toMs(settings.resyncPeriod) };
    }
    const validated = { status: 'True' as const, reason: 'ValidationPassed', message: 'Spec validation passed' };

    // An explicit provider different from the selected one is an identity change: the old provider
    // removes its resources before the new one is recorded.
    let provider = snap.selectedProvider;
    if (provider && snap.explicitProvider && snap.explicitProvider !== provider) {
      at('switch-provider', `provider '${provider}' to remove its resources`);
      const result = await providerActs(provider).cleanupResources(ref);
      if (!result.gone) return { done: false, afterMs: toMs(settings.pollInterval) };
      provider = undefined;
    }

    let selection = provider ? recorded : undefined;
    if (!provider) {
      at('select-provider');
      const outcome = await core.selectProvider(ref, { selectorEnabled: settings.providerSelectorEnabled });
      if (!outcome.provider) {
        const message = outcome.message ?? 'No provider selected';
        view.phase = 'Pending';
        view.message = message;
        at('select-provider', 'a provider');
        await writeCore({
          ...stopped,
          provider: undefined,
          validated,
          providerSelected: { status: 'False', reason: outcome.reason, message },
          phase: { phase: 'Pending', message },
        });
        return { done: false, afterMs: toMs(settings.resyncPeriod) };
      }
      provider = outcome.provider;
      selection = { name: provider, selectedReason: outcome.reason };
    }
    view.provider = provider;
    await writeCore({
      ...base,
      provider: selection,
      validated,
      providerSelected: {
        status: 'True',
        reason: selection?.selectedReason === EXPLICIT_SELECTION ? 'ExplicitSelection' : 'AutoSelected',
        message: selection?.selectedReason ?? '',
      },
    });
    publish();

    const acts = providerActs(provider);
    at('compatibility');
    const compatibility = await acts.checkCompatibility(ref);
    if (compatibility.compatible) {
      at('apply');
      const applied = await acts.applyResource(ref);
      at('observe');
      const observed = await acts.observeResource(ref);
      view.phase = observed.phase;
      view.message = observed.message;
      switch (applied.result) {
        case 'crd-missing':
          at('apply', `the CRD of provider '${provider}' to be installed`);
          return { done: false, afterMs: Math.min(toMs(settings.resyncPeriod), 60_000) };
        case 'recreating':
        case 'waiting-for-deletion':
          at('apply', 'the old provider resource to be deleted');
          return { done: false, afterMs: toMs(settings.pollInterval) };
        default:
          return waitIdle();
      }
    }
    at('observe');
    const observed = await acts.observeResource(ref);
    view.phase = observed.phase;
    view.message = observed.message;
    at('compatibility', 'a spec this provider supports');
    return { done: false, afterMs: toMs(settings.resyncPeriod) };
  };

  for (;;) {
    dirty = false;
    inPass = true;
    let end: PassEnd;
    try {
      end = await pass();
      view.lastError = undefined;
      view.failures = 0;
    } catch (err) {
      view.failures++;
      view.lastError = stepError(view.step, err, view.provider);
      if (view.lastError.type === 'ProviderUnavailable') {
        view.phase = 'Pending';
        view.message = view.lastError.message;
        await writeCore({ ...coreStatus, phase: { phase: 'Pending', message: view.lastError.message } }).catch(
          () => undefined,
        );
      }
      end = { done: false, afterMs: backoffMs(view.failures, settings.retryDelay, settings.maxRetryDelay) };
    }
    inPass = false;
    view.passes++;
    publish();
    if (end.done) return view;

    await condition(() => dirty, end.afterMs);
    const info = workflowInfo();
    // A retry update still waiting for its pass gets that pass first; the next iteration continues as new.
    if ((info.continueAsNewSuggested || info.historyLength > settings.maxHistoryEvents) && allHandlersFinished()) {
      await continueAsNew<typeof modelDeploymentWorkflow>({ ref, settings: input.settings, carried: { view, core: coreStatus, lastCoreWrite } });
    }
  }
}

/** A failed step, described by its stable failure type; a provider nobody serves gets its own type. */
function stepError(step: Step, err: unknown, provider: string | undefined): StepError {
  const at = new Date().toISOString();
  if (err instanceof ActivityFailure && err.cause instanceof TimeoutFailure && err.cause.timeoutType === TimeoutType.SCHEDULE_TO_START) {
    return {
      step,
      type: 'ProviderUnavailable',
      message: `Provider '${provider}' is not available: no worker is serving its task queue`,
      at,
    };
  }
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) return { step, type: cause.type ?? 'Error', message: cause.message, at };
  if (cause instanceof TimeoutFailure) return { step, type: `Timeout${cause.timeoutType !== undefined ? `:${TimeoutType[cause.timeoutType]}` : ''}`, message: cause.message, at };
  return { step, type: 'Error', message: cause instanceof Error ? cause.message : String(cause), at };
}

