// What the workflow of one object says about it: its live view (the `view` query, which every kind's
// workflow answers, on a core worker), or, when no worker answers, what it keeps for the Temporal UI:
// its search attributes and summary memo.

import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { viewQuery } from '../../workflows/engine/definitions.ts';
import { K8sPhase, MdPhase, MdProvider } from '../../workflows/engine/search-attributes.ts';
import type { LoopView, StepError } from '../../workflows/engine/view.ts';
import { firstLine } from './session.ts';

export interface WorkflowState {
  workflowId: string;
  /** RUNNING, COMPLETED, … or NOT_FOUND when no workflow exists for the object. */
  status: string;
  source: 'query' | 'memo' | 'none';
  step: string | undefined;
  waitingFor: string | undefined;
  /** A ModelDeployment's provider; undefined for other kinds. */
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

/** A kind's view may add fields; a ModelDeployment's adds its provider. */
type View = LoopView & { provider?: string };

/** `noun` names the object in the note for a missing workflow ("… when its watcher sees the deployment"). */
export async function workflowState(client: Client, workflowId: string, opts: { noun?: string; queryTimeoutMs?: number } = {}): Promise<WorkflowState> {
  const { noun = 'object', queryTimeoutMs = 3_000 } = opts;
  const handle = client.workflow.getHandle(workflowId);
  const empty = { step: undefined, waitingFor: undefined, provider: undefined, phase: undefined, lastError: undefined };
  let description;
  try {
    description = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) {
      return { workflowId, status: 'NOT_FOUND', source: 'none', ...empty, note: `no workflow yet: the controller starts one when its watcher sees the ${noun}` };
    }
    return { workflowId, status: 'UNKNOWN', source: 'none', ...empty, note: `cannot describe the workflow: ${firstLine((err as Error).message)}` };
  }
  const status = description.status.name;
  try {
    const view = (await client.withDeadline(Date.now() + queryTimeoutMs, () => handle.query(viewQuery))) as View;
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
    // Runs begun at a code level keep the phase and provider in search attributes only (the memo holds a failure).
    const attributes = description.typedSearchAttributes;
    return {
      workflowId,
      status,
      source: 'memo',
      step: memo.step ?? undefined,
      waitingFor: undefined,
      provider: memo.provider ?? attributes.get(MdProvider) ?? undefined,
      phase: memo.phase ?? attributes.get(MdPhase) ?? attributes.get(K8sPhase) ?? undefined,
      lastError: memo.lastError ? { message: memo.lastError } : undefined,
      note: `no worker answered the view query (${firstLine((err as Error).message)}); showing the workflow's last summary: is the core worker running?`,
    };
  }
}
