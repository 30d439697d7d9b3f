// The ModelDeployment workflow in Temporal's test environment with stub activities: a fake deployment
// the core's stubs read and write (they run as local activities on the workflow's own worker, like the
// core worker's), and providers' stubs, each on its own task queue served by a worker of its own.
// Shared by the model-deployment-*.test.ts files.
import type { WorkflowHandle } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { WorkflowWorker } from '../../worker/workflow-thread.ts';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Assessment, CoreActivities, CoreStatus, DeploymentSnapshot, EventInput, SelectionOutcome, ValidationOutcome } from '../../contract/core-activities.ts';
import type { ApplyResult, CleanupOutcome, ProviderActivities, ReconcileOutcome } from '../../contract/provider-activities.ts';
import type { Phase } from '../../api/types.ts';
import { workflowIdFor, type ObjectRef, type ReadRef } from '../../contract/object-ref.ts';
import { modelDeploymentWorkflow, type ModelDeploymentInput } from '../../workflows/model-deployment/model-deployment.ts';
import { CODE_LEVEL } from '../../workflows/engine/code-level.ts';
import { coreTaskQueue } from '../../workflows/engine/settings.ts';
import { inProcessActivityType, providerTaskQueue } from '../../workflows/model-deployment/settings.ts';
import type { ReconcileSettings } from '../../workflows/settings.ts';
import type { DeploymentView } from '../../workflows/model-deployment/view.ts';
import { TEST_SETTINGS, workflowBundle } from '../support/controller.ts';
import { notServed } from '../../worker/core-worker.ts';
import { uniqueName } from '../support/env.ts';
import { skippedResult, viewReader } from './workflow-views.ts';
import { ServerClock, steppingClient, testServerInfo, timeSkippingEnvironment } from '../support/time-skipping.ts';

let env: TestWorkflowEnvironment;
/** The workflows' clock, the file's test environment's (one per file: stubEnvironment's hooks set it). */
const clock = new ServerClock(() => env);

/** The name the selector's stub picks unless a test says otherwise. */
export const PROVIDER = 'stub';
export const EXPLICIT_SELECTION = 'explicit provider selection';

/** What one `reconcileResource` call answers: `result` undefined is a spec the provider does not support. */
export function reconcileOutcome(result: ApplyResult | undefined, phase: Phase = 'Running', message = 'All replicas ready'): ReconcileOutcome {
  return {
    compatibility: { compatible: result !== undefined, errors: result === undefined ? ['engine not supported'] : [], warnings: [] },
    apply: result === undefined ? undefined : { result, resource: { apiVersion: 'stub.example.com/v1', kind: 'StubModel', name: 'x' }, identityChanges: [], warnings: [] },
    observed: { phase, message, ready: phase === 'Running' },
  };
}

/**
 * One deployment as the stubs see it (`object`, null once gone), what they answer next, and what they
 * were asked. The core's stubs behave like the real ones where the workflow depends on it: the
 * assessment stops where `assessDeployment` does, a status write records the provider it names, and
 * removing the finalizer of a deleting object makes it gone.
 */
export class FakeDeployment {
  readonly ref: ObjectRef = { namespace: 'default', name: uniqueName('md'), uid: uniqueName('uid') };
  object: DeploymentSnapshot | null;
  validation: ValidationOutcome = { valid: true, message: undefined, warnings: [] };
  selection: SelectionOutcome = { provider: PROVIDER, reason: 'the only provider that supports the spec', message: undefined, rejected: [] };
  /** Throws to fail the pass's first step. */
  beforeAssess: () => void = () => {};
  reconcile: (provider: string) => ReconcileOutcome = () => reconcileOutcome('created');
  cleanup: (provider: string) => CleanupOutcome = () => ({ gone: true, remaining: [] });
  /** Providers the assessment says run in the core worker's process (whether its stub worker serves them or not). */
  inProcessProviders: string[] | undefined;
  /** What the assessment says of the provider a switch leaves (Assessment.leaving); undefined: nothing said. */
  leaving: { reported: boolean; served: boolean } | undefined;

  readonly assessed: ReadRef[] = [];
  selections = 0;
  readonly writes: CoreStatus[] = [];
  readonly events: EventInput[] = [];
  finalizersRemoved = 0;
  readonly reconciles: { provider: string; ref: ReadRef }[] = [];
  /** The providers of those calls that ran as local activities on the core worker. */
  readonly localReconciles: string[] = [];
  /** Providers whose `cleanupResources` ran as a local activity, in order. */
  readonly localCleanups: string[] = [];
  readonly cleanups: { provider: string; ref: ReadRef }[] = [];

  constructor(object: Partial<DeploymentSnapshot> = {}) {
    this.object = {
      uid: this.ref.uid,
      resourceVersion: '100',
      generation: 1,
      deletionTimestamp: undefined,
      hasFinalizer: true,
      paused: false,
      explicitProvider: undefined,
      selectedProvider: undefined,
      selectedReason: undefined,
      resource: undefined,
      validated: undefined,
      providerSelected: undefined,
      ...object,
    };
  }

  /** The object changes as an edit would: a new resourceVersion, and a new generation for a spec change. */
  edit(change: Partial<DeploymentSnapshot>): void {
    if (!this.object) throw new Error('the object is gone');
    this.object = { ...this.object, resourceVersion: String(Number(this.object.resourceVersion) + 1), ...change };
  }

  /** `kubectl delete`: a deletionTimestamp (the workflows' now unless given) while the finalizer holds the object. */
  delete(at = clock.now()): void {
    this.edit({ deletionTimestamp: at.toISOString() });
  }

  coreActivities(): CoreActivities {
    const read = async () => structuredClone(this.object);
    return {
      assessDeployment: async (ref, _input) => {
        this.assessed.push(ref);
        this.beforeAssess();
        const snapshot = await read();
        if (!snapshot || snapshot.deletionTimestamp || snapshot.paused) return { snapshot, finalizerAdded: false };
        const switching = snapshot.selectedProvider && snapshot.explicitProvider && snapshot.explicitProvider !== snapshot.selectedProvider;
        const selection = this.validation.valid && !snapshot.selectedProvider && !switching ? this.select() : undefined;
        const assessment: Assessment = {
          snapshot,
          finalizerAdded: !snapshot.hasFinalizer,
          validation: this.validation,
          ...(selection ? { selection } : {}),
          ...(this.inProcessProviders ? { inProcessProviders: this.inProcessProviders } : {}),
          ...(switching && this.leaving ? { leaving: { provider: snapshot.selectedProvider!, ...this.leaving } } : {}),
        };
        if (this.object) this.object.hasFinalizer = true;
        return assessment;
      },
      readDeployment: read,
      addFinalizer: async () => {
        if (this.object) this.object.hasFinalizer = true;
      },
      removeFinalizer: async () => {
        this.finalizersRemoved++;
        if (this.object?.deletionTimestamp) this.object = null;
        else if (this.object) this.object.hasFinalizer = false;
      },
      validateDeployment: async () => this.validation,
      selectProvider: async () => this.select(),
      writeCoreStatus: async (_ref, status) => {
        this.writes.push(status);
        if (this.object) {
          this.object.selectedProvider = status.provider?.name;
          this.object.selectedReason = status.provider?.selectedReason;
          this.object.validated = status.validated;
          this.object.providerSelected = status.providerSelected;
        }
      },
      recordEvent: async (_ref, event) => {
        this.events.push(event);
      },
    };
  }

  providerActivities(provider: string): ProviderActivities {
    return {
      reconcileResource: async (ref) => {
        this.reconciles.push({ provider, ref });
        return this.reconcile(provider);
      },
      cleanupResources: async (ref) => {
        this.cleanups.push({ provider, ref });
        return this.cleanup(provider);
      },
    };
  }

  private select(): SelectionOutcome {
    this.selections++;
    return this.selection;
  }
}

/**
 * A view as the workflow holds it: a query answer or a result comes through JSON, which drops the
 * fields that are undefined; put them back so `toMatchObject({ lastError: undefined })` means "none".
 */
export function wholeView(v: DeploymentView): DeploymentView {
  const dropped: Partial<DeploymentView> = { phase: undefined, message: undefined, provider: undefined, waitingFor: undefined, lastError: undefined, observedGeneration: undefined };
  return { ...dropped, ...v };
}

export interface StubbedRun {
  fake: FakeDeployment;
  handle: WorkflowHandle<typeof modelDeploymentWorkflow>;
  /** The workflow's result, as `wholeView`. */
  result(): Promise<DeploymentView>;
  view(): Promise<DeploymentView>;
  viewWhere(what: string, ok: (v: DeploymentView) => boolean, timeoutMs?: number): Promise<DeploymentView>;
  /** viewWhere for a view a timer brings: the server's clock skips ahead between looks (ViewReader.skipUntil). */
  skipUntil(what: string, ok: (v: DeploymentView) => boolean, timeoutMs?: number): Promise<DeploymentView>;
  /** Starts a worker with the fake's stubs on this provider's task queue. */
  serveProvider(name: string): Promise<void>;
}

/**
 * The test environment on the local stack's Temporal server, with hooks that stop every worker (and
 * terminate every workflow) a file started. Each run gets its own task queue prefix: its core queue
 * and its providers' queues are its own.
 */
export function stubEnvironment() {
  const workers: { worker: Worker; run: Promise<void> }[] = [];
  const handles: WorkflowHandle[] = [];

  beforeAll(async () => {
    env = await timeSkippingEnvironment();
  });
  beforeEach(() => clock.refresh());
  afterAll(async () => {
    await Promise.all(handles.map((h) => h.terminate('test over').catch(() => undefined)));
    for (const w of workers) w.worker.shutdown();
    await Promise.all(workers.map((w) => w.run));
    await env?.teardown();
  });

  async function runWorker(options: Parameters<typeof Worker.create>[0]): Promise<void> {
    // The product's worker class: workflows run in the same kind of thread as in production.
    const worker = await WorkflowWorker.create({ connection: env.nativeConnection, namespace: testServerInfo().temporalNamespace, ...options });
    workers.push({ worker, run: worker.run() });
  }

  /** Starts the workflow for `fake`; `providers` are served from the start, others by `serveProvider` or never. */
  /** `inProcess`: providers whose `reconcileResource` and `cleanupResources` the core worker serves too, as the product's does for providers in its process. */
  /** `codeLevel`: the level the run begins at, the current one (as the watcher starts workflows) unless given; null for a run begun before levels. */
  async function start(
    fake: FakeDeployment,
    opts: { providers?: string[]; inProcess?: string[]; settings?: Partial<ReconcileSettings>; codeLevel?: number | null } = {},
  ): Promise<StubbedRun> {
    const taskQueuePrefix = uniqueName('md-wf');
    const settings: Partial<ReconcileSettings> = { ...TEST_SETTINGS, ...opts.settings, taskQueuePrefix };
    const serveProvider = (name: string) => runWorker({ taskQueue: providerTaskQueue({ taskQueuePrefix }, name), activities: fake.providerActivities(name) });
    for (const name of opts.providers ?? [PROVIDER]) await serveProvider(name);
    // The core's stubs are registered with the workflow's worker: the workflow runs them as local activities.
    const taskQueue = coreTaskQueue({ taskQueuePrefix });
    const local = Object.fromEntries(
      (opts.inProcess ?? []).flatMap((name) => [
        [inProcessActivityType(name, 'reconcileResource'), (ref: ReadRef) => (fake.localReconciles.push(name), fake.providerActivities(name).reconcileResource(ref))],
        [inProcessActivityType(name, 'cleanupResources'), (ref: ReadRef) => (fake.localCleanups.push(name), fake.providerActivities(name).cleanupResources(ref))],
      ]),
    );
    await runWorker({ taskQueue, workflowBundle: await workflowBundle(), activities: { ...fake.coreActivities(), ...local, default: notServed } });
    const codeLevel = opts.codeLevel === undefined ? CODE_LEVEL : opts.codeLevel;
    const input: ModelDeploymentInput = { ref: fake.ref, settings, ...(codeLevel === null ? {} : { codeLevel }) };
    const handle = await steppingClient(env).workflow.start(modelDeploymentWorkflow, { taskQueue, workflowId: workflowIdFor('ModelDeployment', fake.ref), args: [input] });
    handles.push(handle);
    const reader = viewReader(env, handle);
    const view = async () => wholeView(await reader.view());
    const result = async () => wholeView(await skippedResult(env, handle));
    const viewWhere = async (what: string, ok: (v: DeploymentView) => boolean, timeoutMs?: number) => wholeView(await reader.viewWhere(what, (v) => ok(wholeView(v)), timeoutMs));
    const skipUntil = async (what: string, ok: (v: DeploymentView) => boolean, timeoutMs?: number) => wholeView(await reader.skipUntil(what, (v) => ok(wholeView(v)), timeoutMs));
    return { fake, handle, result, view, viewWhere, skipUntil, serveProvider };
  }

  return { start, clock };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
