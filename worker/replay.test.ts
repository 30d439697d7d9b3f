// Upgrades must not break running objects: every recorded history in workflows/__histories__ has to
// replay on the current workflow code, and every workflow type the bundle registers has at least one.
// A change to workflow code that makes it non-deterministic (another activity, timer, signal handling
// or condition order on a path these histories took) fails here: guard the new behaviour with a patch
// at the next code level (workflows/engine/code-level.ts, docs/code-levels.md) instead of re-recording;
// the recordings are what running objects of released versions hold.
//
// Recorded on the integration stack by three opt-in e2e tests, `KUBEAIRUNWAY_RECORD_HISTORIES=<label>
// npx vitest run --project integration <file>`, writing <label>-<scenario>.json (the label names the
// release whose code recorded them, e.g. v0.1.0; keep the labels of releases whose runs may be open):
//   test/e2e/record-histories.test.ts — modelDeploymentWorkflow:
//     lifecycle   create → Running → delete
//     identity    spec.model.id changed: the upstream resource recreated
//     invalid     unknown provider (Validated False), then fixed
//     paused      pause annotation set, then removed
//     timeout     deletion whose upstream resource holds its own finalizer: the finalizer timeout
//   test/e2e/record-in-process-histories.test.ts — modelDeploymentWorkflow, provider in the core's process:
//     inprocess-lifecycle   create → Running → delete: dynamo:reconcileResource and dynamo:cleanupResources as
//                           local activities, the timer that commits the cleanup before completion
//   test/e2e/record-kind-histories.test.ts — the other kinds:
//     flame-lifecycle              flameClusterWorkflow: create → Running (2 executors) → scale to 3 → delete
//     asya-standalone              asyncActorWorkflow: standalone create (queues, Deployment, ScaledObject) → delete, finalizer released
//     checkpoint-podnotfound       kybernateCheckpointWorkflow: Failed PodNotFound (no node call) → delete
//     checkpoint-criu-failed       kybernateCheckpointWorkflow: the node's dump fails as CRIU does (ContainerdCheckpointFailed) → Failed → delete
//     checkpoint-completed         kybernateCheckpointWorkflow: dump Completed → delete, image removed on its node before the finalizer
//     restore-lifecycle            kybernateRestoreWorkflow: Pending on an InProgress checkpoint → it completes → pod → Running → delete
//     workload-lifecycle           kybernateWorkloadWorkflow: Running → idle suspend, checkpoint fails, cold scale-to-zero → wake signal → Running → delete
//     workload-suspend-checkpoint  kybernateCheckpointWorkflow of that suspend: Failed (pod on no node) → deleted with the workload
//     workload-pod-refused         kybernateWorkloadWorkflow: pod refused by the API server (unknown RuntimeClass) → Failed with the
//                                  refusal → spec fixed → Running → delete
import { readFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { BUNDLE_OPTIONS } from './workflow-code.ts';
import { recordedHistories, replayFailures } from './replay.ts';

type History = ReturnType<typeof recordedHistories>[number]['history'];

/** The activity type a local activity's marker records (its details' `data` payload, JSON). */
function markerActivityType(event: NonNullable<History['events']>[number]): string | undefined {
  const attrs = event.markerRecordedEventAttributes;
  if (attrs?.markerName !== 'core_local_activity') return undefined;
  const data = attrs.details?.data?.payloads?.[0]?.data;
  return data ? (JSON.parse(Buffer.from(data).toString()) as { activity_type?: string }).activity_type : undefined;
}

/**
 * The history as code that ran two steps the other way round would have written it: the first two
 * adjacent local activities of different types trade their records. Undefined when it has none.
 */
function withTwoStepsSwapped(history: History): History | undefined {
  const events = (history.events ?? []).map((e) => ({ ...e }));
  for (const [i, first] of events.entries()) {
    const second = events[i + 1];
    const types = [markerActivityType(first), second && markerActivityType(second)];
    if (!second || !types[0] || !types[1] || types[0] === types[1]) continue;
    [first.markerRecordedEventAttributes, second.markerRecordedEventAttributes] = [second.markerRecordedEventAttributes, first.markerRecordedEventAttributes];
    return { ...history, events };
  }
  return undefined;
}

/** The workflow bundle, built without its build log. */
const quietBundle = () => bundleWorkflowCode({ ...BUNDLE_OPTIONS, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never });

/** The workflow types the bundle registers, read from its entry (workflows/index.ts) without loading workflow code. */
function registeredWorkflowTypes(): string[] {
  const entry = readFileSync(new URL('../workflows/index.ts', import.meta.url), 'utf8');
  return [...entry.matchAll(/^export \{ (\w+) \} from/gm)].map((m) => m[1]!).sort();
}

describe('replay of recorded histories', () => {
  it('has at least one recorded history of every workflow type', () => {
    const types = new Set(recordedHistories().map((h) => h.history.events?.[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name));
    const registered = registeredWorkflowTypes();
    expect(registered.length).toBeGreaterThanOrEqual(6);
    expect(registered.filter((t) => !types.has(t))).toEqual([]);
  });

  it('replays every recorded history with the current workflow code', async () => {
    const histories = recordedHistories();
    expect(histories.length).toBeGreaterThanOrEqual(4);
    expect(await replayFailures(await quietBundle(), histories)).toEqual([]);
  }, 120_000);

  it('fails a history whose steps the code would issue in another order (the guard is not blind)', async () => {
    const swapped = recordedHistories().flatMap((h) => {
      const history = withTwoStepsSwapped(h.history);
      return history ? [{ workflowId: h.workflowId, history }] : [];
    });
    expect(swapped.length, 'recorded histories with two adjacent local activities').toBeGreaterThan(0);
    const failures = await replayFailures(await quietBundle(), swapped.slice(0, 1));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/Nondeterminism/);
  }, 120_000);
});
