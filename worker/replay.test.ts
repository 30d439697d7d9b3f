// Upgrades must not break running objects: every recorded history in workflows/__histories__ has to
// replay on the current workflow code, and every workflow type the bundle registers has at least one.
// A change to workflow code that makes it non-deterministic (another activity, timer, signal handling
// or condition order on a path these histories took) fails here: guard the new behaviour with a patch
// at the next code level (workflows/engine/code-level.ts) instead of re-recording; the recordings are
// what running objects of older versions hold. Up to r5 they began before code levels (every change
// asked of `patched()`); r6 began at code level 1 (no patch markers, a memo only on failure); from r7
// at code level 2 (one timer kept across passes: none canceled by a signal).
//
// Recorded by two opt-in e2e tests, `KUBEAIRUNWAY_RECORD_HISTORIES=<label> npx vitest run --project
// integration <file>`, writing <label>-<scenario>.json (keep older labels):
//   test/e2e/record-histories.test.ts — modelDeploymentWorkflow (r1, r2, r3; r6 at code level 1; r7 at 2):
//     lifecycle   create → Running → delete
//     identity    spec.model.id changed: the upstream resource recreated
//     invalid     unknown provider (Validated False), then fixed
//     paused      pause annotation set, then removed
//     timeout     deletion whose upstream resource holds its own finalizer: the finalizer timeout
//   test/e2e/record-in-process-histories.test.ts — modelDeploymentWorkflow, provider in the core's process (r5; r6 at code level 1; r7 at 2):
//     inprocess-lifecycle   create → Running → delete: dynamo:reconcileResource and dynamo:cleanupResources as
//                           local activities, the timer that commits the cleanup before completion
//   test/e2e/record-kind-histories.test.ts — the other kinds (r4; all of them again as r6 at code level 1, r7 at 2):
//     flame-lifecycle              flameClusterWorkflow: create → Running (2 executors) → scale to 3 → delete
//     asya-standalone              asyncActorWorkflow: standalone create (queues, Deployment, ScaledObject) → delete, finalizer released
//     checkpoint-podnotfound       kybernateCheckpointWorkflow: Failed PodNotFound (no node call) → delete
//     checkpoint-criu-failed       kybernateCheckpointWorkflow: the node's dump fails as CRIU does (ContainerdCheckpointFailed) → Failed → delete
//     checkpoint-completed         kybernateCheckpointWorkflow: dump Completed → delete, image removed on its node before the finalizer
//     restore-lifecycle            kybernateRestoreWorkflow: Pending on an InProgress checkpoint → it completes → pod → Running → delete
//     workload-lifecycle           kybernateWorkloadWorkflow: Running → idle suspend, checkpoint fails, cold scale-to-zero → wake signal → Running → delete
//     workload-suspend-checkpoint  kybernateCheckpointWorkflow of that suspend: Failed (pod on no node) → deleted with the workload
//   and (r5):
//     workload-pod-refused         kybernateWorkloadWorkflow: pod refused by the API server (unknown RuntimeClass) → Failed with the
//                                  refusal (patch workload-reports-pod-refusal) → spec fixed → Running → delete
import { readFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { BUNDLE_OPTIONS } from './workflow-code.ts';
import { recordedHistories, replayFailures } from './replay.ts';

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
    const bundle = await bundleWorkflowCode({ ...BUNDLE_OPTIONS, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never });
    expect(await replayFailures(bundle, histories)).toEqual([]);
  }, 120_000);
});
