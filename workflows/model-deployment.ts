import { allHandlersFinished, condition, continueAsNew, setHandler, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { reconcileSignal, retrySignal, retryUpdate, viewQuery } from './definitions.ts';
import { DeploymentState, type CarriedState, type PassEnd } from './deployment-state.ts';
import { backoffMs } from './durations.ts';
import type { DeploymentRef } from './ids.ts';
import { runPass } from './pass.ts';
import { MdName, MdNamespace } from './search-attributes.ts';
import { DEFAULT_SETTINGS, type ReconcileSettings } from './settings.ts';
import { stepError } from './step-error.ts';
import type { DeploymentView, RetryResult } from './view.ts';

export interface ModelDeploymentInput {
  ref: DeploymentRef;
  settings?: Partial<ReconcileSettings>;
  /** State carried across continue-as-new. */
  carried?: CarriedState;
}

/**
 * One ModelDeployment incarnation's whole life: level-triggered passes that re-read the live object,
 * each woken by a watch signal, a retry, or the resync timer; deletion with a bounded cleanup.
 */
export async function modelDeploymentWorkflow(input: ModelDeploymentInput): Promise<DeploymentView> {
  const settings: ReconcileSettings = { ...DEFAULT_SETTINGS, ...input.settings };
  const state = new DeploymentState(input.ref, settings, input.carried);
  const { view } = state;
  let inPass = false;

  setHandler(reconcileSignal, (request) => {
    state.sawVersion(request?.resourceVersion);
    if (!request?.fromResource) state.onlyResourceChanged = false;
    state.dirty = true;
  });
  setHandler(retrySignal, () => {
    state.onlyResourceChanged = false;
    state.dirty = true;
  });
  setHandler(retryUpdate, async (): Promise<RetryResult> => {
    const retried = view.lastError?.step ?? (view.waitingFor ? view.step : undefined);
    const previousError = view.lastError;
    const target = view.passes + (inPass ? 2 : 1);
    state.onlyResourceChanged = false;
    state.dirty = true;
    await condition(() => view.passes >= target);
    return {
      retried,
      previousError,
      outcome: view.lastError ? 'failed' : view.waitingFor ? 'waiting' : 'succeeded',
      error: view.lastError,
    };
  });
  setHandler(viewQuery, () => view);

  // The watcher starts the workflow with these attributes and continue-as-new carries them over;
  // histories recorded before FEWER_ROUND_TRIPS set them again here.
  if (!state.fewerRoundTrips) {
    upsertSearchAttributes([
      { key: MdNamespace, value: input.ref.namespace },
      { key: MdName, value: input.ref.name },
    ]);
  }

  for (;;) {
    // Every run starts with a pass; signals that arrive during a pass mark it for one more.
    state.dirty = false;
    inPass = true;
    let end: PassEnd;
    try {
      end = await runPass(state);
      view.lastError = undefined;
      view.failures = 0;
    } catch (err) {
      view.failures++;
      view.lastError = stepError(view.step, err, view.provider);
      if (view.lastError.type === 'ProviderUnavailable') {
        view.phase = 'Pending';
        view.message = view.lastError.message;
        await state.writeCore({ ...state.coreStatus, phase: { phase: 'Pending', message: view.lastError.message } }).catch(() => undefined);
      }
      end = { done: false, afterMs: backoffMs(view.failures, settings.retryDelay, settings.maxRetryDelay) };
    }
    inPass = false;
    view.passes++;
    state.publish();
    if (end.done) return view;

    // Settled (idle, no error) and nothing but the provider's resource wakes it: the next pass may be short.
    state.onlyResourceChanged = view.step === 'idle' && !view.lastError && !state.dirty;
    if (!(await condition(() => state.dirty, end.afterMs))) state.onlyResourceChanged = false;
    const info = workflowInfo();
    // A retry update still waiting for its pass gets that pass first; the next iteration continues as new.
    if ((info.continueAsNewSuggested || info.historyLength > settings.maxHistoryEvents) && allHandlersFinished()) {
      await continueAsNew<typeof modelDeploymentWorkflow>({ ref: input.ref, settings: input.settings, carried: state.carried() });
    }
  }
}
