// What the workflow of one deployment says about it: its live view (the `view` query, answered by a
// core worker), or, when no worker answers, the summary memo the workflow keeps for the Temporal UI.

import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { viewQuery } from '../../workflows/definitions.ts';
import type { DeploymentView, StepError } from '../../workflows/view.ts';
import { firstLine } from './session.ts';

export interface WorkflowState {
  workflowId: string;
  /** RUNNING, COMPLETED, … or NOT_FOUND when no workflow exists for the deployment. */
  status: string;
  source: 'query' | 'memo' | 'none';
  step: string | undefined;
  waitingFor: string | undefined;
  provider: string | undefined;
  phase: string | undefined;
  lastError: StepError | { message: string } | undefined;
  /** Why the answer is partial, in words. */
  note: string | undefined;
}

interface MemoSummary {
  phase?: string | null;
  provider?: string | null;
  step?: string | null;
  lastError?: string | null;
}

export async function workflowState(client: Client, workflowId: string, queryTimeoutMs = 3_000): Promise<WorkflowState> {
  const handle = client.workflow.getHandle(workflowId);
  const empty = { step: undefined, waitingFor: undefined, provider: undefined, phase: undefined, lastError: undefined };
  let description;
  try {
    description = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      return { workflowId, status: 'NOT_FOUND', source: 'none', ...empty, note: 'no workflow yet: the controller starts one when its watcher sees the deployment' };
    }
    return { workflowId, status: 'UNKNOWN', source: 'none', ...empty, note: `cannot describe the workflow: ${firstLine((err as Error).message)}` };
  }
  const status = description.status.name;
  try {
    const view: DeploymentView = await client.withDeadline(Date.now() + queryTimeoutMs, () => handle.query(viewQuery));
    return {
      workflowId,
      status,
      source: 'query',
      step: view.step,
      waitingFor: view.waitingFor,
      provider: view.provider,
      phase: view.phase,
      lastError: view.lastError,
      note: undefined,
    };
  } catch (err) {
    const memo = (description.memo?.summary ?? {}) as MemoSummary;
    return {
      workflowId,
      status,
      source: 'memo',
      step: memo.step ?? undefined,
      waitingFor: undefined,
      provider: memo.provider ?? undefined,
      phase: memo.phase ?? undefined,
      lastError: memo.lastError ? { message: memo.lastError } : undefined,
      note: `no worker answered the view query (${firstLine((err as Error).message)}); showing the workflow's last summary: is the core worker running?`,
    };
  }
}
