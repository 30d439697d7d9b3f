import type { CoreActivities, CoreStatus } from '../../contract/core-activities.ts';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';
import type { CleanupOutcome, ProviderActivities, ReconcileOutcome } from '../../contract/provider-activities.ts';
import type { PassEnd } from '../engine/reconcile-loop.ts';
import type { EngineSettings } from '../engine/settings.ts';
import type { ModelDeploymentSettings } from './settings.ts';
import type { DeploymentView, Step } from './view.ts';

/**
 * What a pass, the cleanup and a provider switch read and change of the workflow's memory of its
 * deployment. DeploymentState (deployment-state.ts) is the one implementation; declaring the shape
 * here lets those three modules depend on it without depending on the class that runs them.
 */
export interface PassState {
  readonly ref: ObjectRef;
  readonly view: DeploymentView;
  readonly settings: ModelDeploymentSettings & EngineSettings;
  /** Set by signals: something may have changed, look again (the cleanup's waits end on it). */
  dirty: boolean;
  /** The core's steps, as local activities. */
  readonly core: CoreActivities;
  /** The core-owned status as last written (or about to be). */
  coreStatus: CoreStatus | undefined;
  /** When the current provider switch began waiting for the old provider (workflow time). */
  switchSince: number | undefined;
  /** Everything that woke the workflow since a settled pass was a change of the provider's resource. */
  readonly onlyResourceChanged: boolean;
  /** Providers the last assessment said run in the workflow's worker process. */
  inProcessProviders: ReadonlySet<string>;

  at(step: Step, waitingFor?: string): void;
  wait(step: Step, waitingFor: string | undefined, afterMs?: number): PassEnd;
  resyncMs(): number;
  readRef(): ReadRef;
  /** The search attributes and failure memo, now (a deletion shows Terminating before it waits). */
  publish(): void;
  /** Writes the core-owned status when it differs from what was last written. */
  writeCore(next: CoreStatus, ref?: ReadRef): Promise<void>;
  /** A provider's activities on its task queue. */
  provider(name: string, scheduleToStartMs?: number): ProviderActivities;
  /** The provider's one call: in process when its worker runs beside this one, else on its queue. */
  reconcileResource(name: string, ref: ReadRef): Promise<ReconcileOutcome>;
  /** The provider's cleanup, in process when `inProcess` says so. */
  cleanupResources(name: string, ref: ReadRef, scheduleToStartMs: number, inProcess: boolean): Promise<CleanupOutcome>;
  /** Whether this run takes the change a patch new at level `since` guards (docs/code-levels.md). */
  takes(patchId: string, since: number): boolean;
}
