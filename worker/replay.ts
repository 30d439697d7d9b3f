import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import { Worker, type WorkflowBundleOption } from '@temporalio/worker';

export const HISTORIES_DIR = new URL('../workflows/__histories__/', import.meta.url);

export interface RecordedHistory {
  workflowId: string;
  history: unknown;
}

/** Recorded histories committed with the code: what older workers wrote that this code must still replay. */
export function recordedHistories(): { name: string; workflowId: string; history: ReturnType<typeof historyFromJSON> }[] {
  const dir = HISTORIES_DIR.pathname;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const recorded = JSON.parse(readFileSync(join(dir, f), 'utf8')) as RecordedHistory;
      return { name: f, workflowId: recorded.workflowId, history: historyFromJSON(recorded.history) };
    });
}

/** Replays histories against the current workflow code (a bundle, or the build's bundle file); returns one error message per history that no longer replays. */
export async function replayFailures(bundle: WorkflowBundleOption, histories: { workflowId: string; history: unknown }[]): Promise<string[]> {
  const failures: string[] = [];
  const results = Worker.runReplayHistories({ workflowBundle: bundle, replayName: 'kubeairunway-replay' }, histories);
  for await (const result of results) {
    if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
  }
  return failures;
}
