import { upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { CoreStatus } from '../activities/core/types.ts';
import { coreActivities, providerActivities } from './activity-proxies.ts';
import type { DeploymentRef } from './ids.ts';
import { MdPhase, MdProvider } from './search-attributes.ts';
import type { ReconcileSettings } from './settings.ts';
import type { DeploymentView, Step } from './view.ts';

/** What a run hands to the next one at continue-as-new. */
export interface CarriedState {
  view: DeploymentView;
  core: CoreStatus | undefined;
  lastCoreWrite: string | undefined;
}

/** How a pass ended: stop (object gone), or wait for a signal or at most `afterMs`. */
export type PassEnd = { done: true } | { done: false; afterMs: number };

export function initialView(ref: DeploymentRef): DeploymentView {
  return {
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
}

/** The workflow's memory of its deployment, shared by the loop, the pass and the cleanup. */
export class DeploymentState {
  readonly view: DeploymentView;
  coreStatus: CoreStatus | undefined;
  private lastCoreWrite: string | undefined;
  /** Set by signals and retries: something may have changed, look again. */
  dirty = false;
  private memoKey = '';

  constructor(
    readonly ref: DeploymentRef,
    readonly settings: ReconcileSettings,
    carried: CarriedState | undefined,
  ) {
    this.view = carried?.view ?? initialView(ref);
    this.coreStatus = carried?.core;
    this.lastCoreWrite = carried?.lastCoreWrite;
  }

  carried(): CarriedState {
    return { view: this.view, core: this.coreStatus, lastCoreWrite: this.lastCoreWrite };
  }

  at(step: Step, waitingFor?: string): void {
    this.view.step = step;
    this.view.waitingFor = waitingFor;
  }

  provider(name: string, scheduleToStartMs?: number) {
    return providerActivities(this.settings, name, scheduleToStartMs);
  }

  /** Search attributes and memo follow the view, written only when they change. */
  publish(): void {
    const { view } = this;
    const key = `${view.phase}|${view.provider}|${view.step}|${view.lastError?.message}`;
    if (key === this.memoKey) return;
    this.memoKey = key;
    upsertSearchAttributes([
      { key: MdPhase, value: view.phase ?? null },
      { key: MdProvider, value: view.provider ?? null },
    ]);
    upsertMemo({
      summary: { phase: view.phase ?? null, provider: view.provider ?? null, step: view.step, lastError: view.lastError?.message ?? null },
    });
  }

  /** Writes the core-owned status only when it differs from what was last written. */
  async writeCore(next: CoreStatus): Promise<void> {
    this.coreStatus = next;
    const serialized = JSON.stringify(next);
    if (serialized === this.lastCoreWrite) return;
    await coreActivities.writeCoreStatus(this.ref, next);
    this.lastCoreWrite = serialized;
  }
}
