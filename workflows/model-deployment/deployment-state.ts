import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { CoreActivities, CoreStatus } from '../../contract/core-activities.ts';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';
import type { CleanupOutcome, ProviderActivities, ReconcileOutcome } from '../../contract/provider-activities.ts';
import { CODE_LEVEL } from '../engine/code-level.ts';
import type { ReconcileRequest } from '../engine/definitions.ts';
import { freshView, ObjectReconciler, type ObjectInput } from '../engine/object-reconciler.ts';
import type { PassEnd } from '../engine/reconcile-loop.ts';
import { MdPhase, MdProvider } from '../engine/search-attributes.ts';
import { ENGINE_DEFAULTS, type EngineSettings } from '../engine/settings.ts';
import { stepError } from '../engine/step-error.ts';
import type { StepError } from '../engine/view.ts';
import { inProcessCall, localCoreActivities, providerActivities } from './activities.ts';
import type { PassState } from './pass-state.ts';
import { runPass } from './pass.ts';
import { MODEL_DEPLOYMENT_DEFAULTS, NOT_SERVED, type ModelDeploymentSettings } from './settings.ts';
import type { DeploymentView } from './view.ts';

/** What a run hands to the next one at continue-as-new. */
export interface CarriedState {
  view: DeploymentView;
  core: CoreStatus | undefined;
  lastCoreWrite: string | undefined;
  /** When a provider switch began waiting for the old provider (workflow time), while it waits. */
  switchSince?: number;
  /** The newest resourceVersion a signal reported (see SeenVersion). */
  seenVersion?: string;
}

/** ModelDeployment's input: the engine's, carrying `CarriedState` (with the seen version inside it). */
export type ModelDeploymentInput = Omit<ObjectInput<DeploymentView, CarriedState, ModelDeploymentSettings & EngineSettings>, 'seenVersion'>;

function initialView(ref: ObjectRef): DeploymentView {
  return { ...freshView(ref, 'read'), phase: undefined, step: 'read', provider: undefined, deleting: false, paused: false };
}

/**
 * The ModelDeployment workflow's memory of its deployment, shared by the loop, the pass and the cleanup:
 * the engine's reconciler with what is ModelDeployment's own (the Md* search attributes, the core status
 * it last wrote, a provider switch's start, the short pass after a change of the provider's resource).
 */
export class DeploymentState extends ObjectReconciler<DeploymentView, CarriedState, ModelDeploymentSettings & EngineSettings> implements PassState {
  coreStatus: CoreStatus | undefined;
  private lastCoreWrite: string | undefined;
  /** When the current provider switch began waiting for the old provider (workflow time). */
  switchSince: number | undefined;
  /**
   * True while everything that woke the workflow since the last pass was a change of the provider's
   * resource, and that pass ended settled: the object itself is as that pass judged it, so the next
   * pass only needs the provider's call (see `runPass`).
   */
  onlyResourceChanged = false;
  /** The core's steps: local activities, run by the worker that runs the workflow. */
  readonly core: CoreActivities = localCoreActivities;
  /** Providers the last assessment said run in the workflow's worker process (Assessment.inProcessProviders). */
  inProcessProviders: ReadonlySet<string> = new Set();

  constructor(input: ModelDeploymentInput) {
    const carried = input.carried;
    super(input, carried?.view ?? initialView(input.ref), { ...ENGINE_DEFAULTS, ...MODEL_DEPLOYMENT_DEFAULTS }, carried?.seenVersion);
    this.coreStatus = carried?.core;
    this.lastCoreWrite = carried?.lastCoreWrite;
    this.switchSince = carried?.switchSince;
  }

  runPass(): Promise<PassEnd> {
    return runPass(this);
  }

  /** A watch signal: remember the newest version it reported; any change but the provider's resource ends the shortcut. */
  override heard(request: ReconcileRequest | undefined): void {
    super.heard(request);
    if (!request?.fromResource) this.onlyResourceChanged = false;
  }

  retried(): void {
    this.onlyResourceChanged = false;
  }

  /** Settled (idle, no error) and nothing but the provider's resource wakes it: the next pass may be short. */
  settling(): void {
    this.onlyResourceChanged = this.view.step === 'idle' && !this.view.lastError && !this.dirty;
  }

  timedOut(): void {
    this.onlyResourceChanged = false;
  }

  /** A provider nobody serves leaves the deployment Pending, saying so in status. */
  override async passFailed(err: unknown): Promise<StepError> {
    const { view } = this;
    const failure = stepError(view.step, err, `Provider '${view.provider}'`);
    if (failure.type === 'ProviderUnavailable') {
      view.phase = 'Pending';
      view.message = failure.message;
      await this.writeCore({ ...this.coreStatus, phase: { phase: 'Pending', message: failure.message } }).catch(() => undefined);
    }
    return failure;
  }

  /** ModelDeployments keep the search attributes they had before other kinds existed: MdPhase and MdProvider. */
  protected override attributes(): SearchAttributeUpdatePair[] {
    const { view } = this;
    return [
      { key: MdPhase, value: view.phase ?? null },
      { key: MdProvider, value: view.provider ?? null },
    ];
  }

  /** The next run carries the core status last written and a switch's start besides the view. */
  protected override nextInput(): ModelDeploymentInput {
    return { ref: this.ref, settings: this.input.settings, carried: this.carried(), codeLevel: CODE_LEVEL };
  }

  carried(): CarriedState {
    const seenVersion = this.seenVersion;
    return {
      view: this.view,
      core: this.coreStatus,
      lastCoreWrite: this.lastCoreWrite,
      ...(this.switchSince !== undefined ? { switchSince: this.switchSince } : {}),
      ...(seenVersion !== undefined ? { seenVersion } : {}),
    };
  }

  provider(name: string, scheduleToStartMs?: number) {
    return providerActivities(this.settings, name, scheduleToStartMs);
  }

  /**
   * The provider's one call: a local activity when its worker runs beside this workflow's, else on its
   * task queue; a worker that does not serve the provider after all (the workflow moved) sends it remote.
   */
  reconcileResource(name: string, ref: ReadRef): Promise<ReconcileOutcome> {
    return this.callProvider(name, 'reconcileResource', ref, this.inProcessProviders.has(name));
  }

  /** The provider's cleanup, in process when `inProcess` says so (the cleanup's choice, see cleanup.ts). */
  cleanupResources(name: string, ref: ReadRef, scheduleToStartMs: number, inProcess: boolean): Promise<CleanupOutcome> {
    return this.callProvider(name, 'cleanupResources', ref, inProcess, scheduleToStartMs);
  }

  private async callProvider<A extends 'reconcileResource' | 'cleanupResources'>(
    name: string,
    activity: A,
    ref: ReadRef,
    inProcess: boolean,
    scheduleToStartMs?: number,
  ): Promise<Awaited<ReturnType<ProviderActivities[A]>>> {
    if (inProcess && this.inProcessProviders.has(name)) {
      try {
        return (await inProcessCall(name, activity)(ref)) as Awaited<ReturnType<ProviderActivities[A]>>;
      } catch (err) {
        // A local activity's failure arrives unwrapped, a remote one's inside an ActivityFailure.
        const cause = err instanceof ActivityFailure ? err.cause : err;
        if (!(cause instanceof ApplicationFailure && cause.type === NOT_SERVED)) throw err;
        this.inProcessProviders = new Set([...this.inProcessProviders].filter((p) => p !== name));
      }
    }
    return (await this.provider(name, scheduleToStartMs)[activity](ref)) as Awaited<ReturnType<ProviderActivities[A]>>;
  }

  /** Writes the core-owned status only when it differs from what was last written. */
  async writeCore(next: CoreStatus, ref: ReadRef = this.ref): Promise<void> {
    this.coreStatus = next;
    const serialized = JSON.stringify(next);
    if (serialized === this.lastCoreWrite) return;
    await this.core.writeCoreStatus(ref, next);
    this.lastCoreWrite = serialized;
  }
}
