// Upgrades must not break running deployments: every recorded history in __histories__ has to replay
// on the current workflow code. A change that makes workflow code non-deterministic fails here (guard it
// with `patched()`); the recordings are refreshed by the record-histories e2e test.
import { bundleWorkflowCode } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { WORKFLOWS_PATH } from './core-worker.ts';
import { recordedHistories, replayFailures } from './replay.ts';

describe('replay of recorded histories', () => {
  it('replays every recorded deployment history with the current workflow code', async () => {
    const histories = recordedHistories();
    expect(histories.length).toBeGreaterThanOrEqual(4);
    const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } as never });
    expect(await replayFailures(bundle, histories)).toEqual([]);
  }, 120_000);
});
