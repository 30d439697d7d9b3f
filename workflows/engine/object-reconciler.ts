import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { continueAsNew } from '@temporalio/workflow';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';
import type { ReconcileRequest } from './definitions.ts';
import { toMs } from './durations.ts';
import type { PassEnd, Reconciler } from './reconcile-loop.ts';
import type { EngineSettings } from './settings.ts';
import { K8sPhase } from './search-attributes.ts';
import { SeenVersion } from './seen-version.ts';
import { CODE_LEVEL, takesChange } from './code-level.ts';
import { VisibilityWrites } from './visibility.ts';
import { stepError } from './step-error.ts';
import type { LoopView, StepError } from './view.ts';

/**
 * What a kind's workflow takes, and hands itself at continue-as-new. `C` is what a run carries to the
 * next: the view, for every kind but ModelDeployment (which carries more, see its `CarriedState`).
 * `S`: the settings the kind reads, the engine's and its own (the watcher passes every kind's).
 */
export interface ObjectInput<V extends LoopView, C = V, S extends EngineSettings = EngineSettings> {
  ref: ObjectRef;
  settings?: Partial<S>;
  /** What the last run carried across continue-as-new. */
  carried?: C;
  /** The newest resourceVersion a signal reported (see SeenVersion), where `carried` does not hold it. */
  seenVersion?: string;
  /** The code level the run began at (see code-level.ts); a run started without one began at the first. */
  codeLevel?: number;
}

/** The loop's part of a new view; a kind adds its own fields. */
export function freshView(ref: ObjectRef, step: string): LoopView {
  return { ...ref, phase: undefined, message: undefined, step, waitingFor: undefined, lastError: undefined, failures: 0, observedGeneration: undefined, passes: 0 };
}

/**
 * The parts of a Reconciler every kind shares: settings, the version signals reported, the phase as
 * the `K8sPhase` search attribute and a memo of the last failure (each written only when it changes),
 * continue-as-new with the view, the step bookkeeping and the code level's patches. A kind writes
 * `runPass` (and, if it needs, the hooks: `attributes`, `nextInput`, the loop's).
 */
export abstract class ObjectReconciler<V extends LoopView, C = V, S extends EngineSettings = EngineSettings> implements Reconciler<V> {
  readonly view: V;
  readonly settings: S;
  dirty = false;
  private readonly seen: SeenVersion;
  private readonly visibility = new VisibilityWrites();

  /**
   * `view`: the carried view, or a fresh one; `defaults`: the kind's settings where the input gives none
   * (ENGINE_DEFAULTS for a kind with none of its own); `seenVersion`: where the kind's input carries it.
   */
  constructor(
    protected readonly input: ObjectInput<V, C, S>,
    view: V,
    defaults: S,
    seenVersion = input.seenVersion,
  ) {
    this.settings = { ...defaults, ...input.settings };
    this.seen = new SeenVersion(seenVersion);
    this.view = view;
  }

  get ref(): ObjectRef {
    return this.input.ref;
  }

  abstract runPass(): Promise<PassEnd>;

  heard(request: ReconcileRequest | undefined): void {
    this.seen.saw(request?.resourceVersion);
  }

  async passFailed(err: unknown): Promise<StepError> {
    return stepError(this.view.step, err);
  }

  /** The search attributes and the failure memo (see VisibilityWrites). */
  publish(): void {
    this.visibility.attributes(this.attributes());
    this.visibility.failure(this.view);
  }

  /** The search attributes this kind publishes: the phase as `K8sPhase`. */
  protected attributes(): SearchAttributeUpdatePair[] {
    return [{ key: K8sPhase, value: this.view.phase ?? null }];
  }

  /** Whether this run takes the change a patch new at level `since` guards (see code-level.ts). */
  takes(patchId: string, since: number): boolean {
    return takesChange(this.input.codeLevel ?? 1, patchId, since);
  }

  continueAsNew(): Promise<never> {
    return continueAsNew<(input: ObjectInput<V, C | V, S>) => Promise<V>>(this.nextInput());
  }

  /** The next run's input: the view and the version signals reported. The next run begins at this code's level, whatever level this one had. */
  protected nextInput(): ObjectInput<V, C | V, S> {
    return { ref: this.input.ref, settings: this.input.settings, carried: this.view, seenVersion: this.seen.version, codeLevel: CODE_LEVEL };
  }

  /** The newest resourceVersion a signal reported, for a kind that carries it in its own state. */
  protected get seenVersion(): string | undefined {
    return this.seen.version;
  }

  /** How a pass's first read addresses the object: no older than the newest version a signal reported. */
  readRef(): ReadRef {
    return this.seen.readRef(this.input.ref);
  }

  at(step: V['step'], waitingFor?: string): void {
    this.view.step = step;
    this.view.waitingFor = waitingFor;
  }

  /** Ends the pass at `step`, waiting for `waitingFor` (if anything), at most `afterMs` (default: the resync period). */
  wait(step: V['step'], waitingFor: string | undefined, afterMs = this.resyncMs()): PassEnd {
    this.at(step, waitingFor);
    return { done: false, afterMs };
  }

  resyncMs(): number {
    return toMs(this.settings.resyncPeriod);
  }
}
