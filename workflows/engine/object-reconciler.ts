import { continueAsNew, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';
import { DEFAULT_SETTINGS, type ReconcileSettings } from '../settings.ts';
import type { ReconcileRequest } from './definitions.ts';
import { toMs } from './durations.ts';
import type { PassEnd, Reconciler } from './reconcile-loop.ts';
import { K8sPhase } from './search-attributes.ts';
import { SeenVersion } from './seen-version.ts';
import { CODE_LEVEL, takesChange } from './code-level.ts';
import { VisibilityWrites } from './visibility.ts';
import { stepError } from './step-error.ts';
import type { LoopView, StepError } from './view.ts';

/** What every kind's workflow after ModelDeployment takes, and hands itself at continue-as-new. */
export interface ObjectInput<V extends LoopView> {
  ref: ObjectRef;
  settings?: Partial<ReconcileSettings>;
  /** The view carried across continue-as-new. */
  carried?: V;
  /** The newest resourceVersion a signal reported (see SeenVersion). */
  seenVersion?: string;
  /** The code level the run began at (see code-level.ts); absent in runs begun before levels. */
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
 * `runPass` (and, if it needs, the hooks).
 */
export abstract class ObjectReconciler<V extends LoopView> implements Reconciler<V> {
  readonly view: V;
  readonly settings: ReconcileSettings;
  dirty = false;
  private readonly seen: SeenVersion;
  private published = '';
  private readonly visibility = new VisibilityWrites();

  constructor(
    protected readonly input: ObjectInput<V>,
    initial: V,
  ) {
    this.settings = { ...DEFAULT_SETTINGS, ...input.settings };
    this.seen = new SeenVersion(input.seenVersion);
    this.view = input.carried ?? initial;
  }

  abstract runPass(): Promise<PassEnd>;

  heard(request: ReconcileRequest | undefined): void {
    this.seen.saw(request?.resourceVersion);
  }

  async passFailed(err: unknown): Promise<StepError> {
    return stepError(this.view.step, err);
  }

  /** The phase as a search attribute and the failure memo (see VisibilityWrites); runs begun before code levels as recorded. */
  publish(): void {
    const { view } = this;
    if (!this.input.codeLevel) return this.publishAsRecorded();
    this.visibility.attributes([{ key: K8sPhase, value: view.phase ?? null }]);
    this.visibility.failure(view);
  }

  /** Runs begun before code levels wrote both whenever either changed, with the phase in the memo too. */
  private publishAsRecorded(): void {
    const { view } = this;
    const key = `${view.phase}|${view.lastError?.message}`;
    if (key === this.published) return;
    this.published = key;
    upsertSearchAttributes([{ key: K8sPhase, value: view.phase ?? null }]);
    upsertMemo({ summary: { phase: view.phase ?? null, step: view.step, lastError: view.lastError?.message ?? null } });
  }

  /** Whether this run takes the change a patch guards: known from its code level, else asked of `patched()`. */
  takes(patchId: string, since?: number): boolean {
    return takesChange(this.input.codeLevel, patchId, since);
  }

  continueAsNew(): Promise<never> {
    // The next run has no history yet: it begins at this code's level, whatever level this one had.
    return continueAsNew<(input: ObjectInput<V>) => Promise<V>>({
      ref: this.input.ref,
      settings: this.input.settings,
      carried: this.view,
      seenVersion: this.seen.version,
      codeLevel: CODE_LEVEL,
    });
  }

  /** How a pass's first read addresses the object: no older than the newest version a signal reported. */
  protected readRef(): ReadRef {
    return this.seen.readRef(this.input.ref);
  }

  protected at(step: V['step'], waitingFor?: string): void {
    this.view.step = step;
    this.view.waitingFor = waitingFor;
  }

  /** Ends the pass at `step`, waiting for `waitingFor` (if anything), at most `afterMs` (default: the resync period). */
  protected wait(step: V['step'], waitingFor: string | undefined, afterMs = this.resyncMs()): PassEnd {
    this.at(step, waitingFor);
    return { done: false, afterMs };
  }

  protected resyncMs(): number {
    return toMs(this.settings.resyncPeriod);
  }
}
