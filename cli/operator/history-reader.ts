// Reads the histories of an object's workflow across continue-as-new: from the latest run back
// through each run's `continuedExecutionRunId`, so no visibility query (which may lag) is needed.

import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { CliError } from '../../present/errors.ts';
import { firstLine } from './session.ts';
import type { HistoryEvent, PendingStep, RunHistory } from './timeline.ts';

export interface WorkflowRuns {
  workflowId: string;
  /** Oldest shown first. */
  runs: RunHistory[];
  latestRunId: string;
  status: string;
  /** Runs older than the oldest shown exist (the --runs limit was reached). */
  olderRunsOmitted: boolean;
}

type PendingActivity = { activityId?: string | null; attempt?: number | null; lastFailure?: unknown };

/** `noun` names the object in the error for a missing workflow ("… when its watcher sees the deployment"). */
export async function readWorkflowRuns(client: Client, workflowId: string, maxRuns: number, noun = 'deployment'): Promise<WorkflowRuns> {
  let latest;
  try {
    latest = await client.workflow.getHandle(workflowId).describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new CliError(`No workflow ${workflowId}: the controller starts it when its watcher sees the ${noun}; is the controller running?`);
    throw new CliError(`Cannot read workflow ${workflowId}: ${firstLine((err as Error).message)}.`);
  }
  const pendingActivities = (latest.raw.pendingActivities ?? []) as PendingActivity[];
  const pending = new Map<string, PendingStep>(pendingActivities.map((p) => [p.activityId ?? '', { attempt: p.attempt ?? 1, lastFailure: p.lastFailure as PendingStep['lastFailure'] }]));

  const runs: RunHistory[] = [];
  let runId: string | undefined = latest.runId;
  while (runId && runs.length < maxRuns) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    runs.unshift({ runId, events, ...(runs.length === 0 ? { pending } : {}) });
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return { workflowId, runs, latestRunId: latest.runId, status: latest.status.name, olderRunsOmitted: Boolean(runId) };
}

/**
 * The newest workflow a visibility query finds, e.g. the kind's query for an object by namespace and
 * name once the object is gone (its uid, hence its workflow ID, gone with it). `what` names it in errors.
 */
export async function findNewestWorkflow(client: Client, query: string, what: string): Promise<string | undefined> {
  let newest: { id: string; start: number } | undefined;
  try {
    for await (const wf of client.workflow.list({ query, pageSize: 100 })) {
      const start = wf.startTime.getTime();
      if (!newest || start > newest.start) newest = { id: wf.workflowId, start };
    }
  } catch (err) {
    throw new CliError(`Cannot search Temporal for ${what}: ${firstLine((err as Error).message)}.`);
  }
  return newest?.id;
}
