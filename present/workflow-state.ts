// What the workflow of one object says about it: its live view (the `view` query, which every kind's
// workflow answers, on a core worker), or, when no worker answers, what it keeps for the Temporal UI:
// its search attributes and summary memo. Read through a WorkflowReader: the SDK's client
// (workflow-reader-sdk.ts) or the light one of `status` (light-temporal.ts).

import type { LoopView, StepError } from '../workflows/engine/view.ts';

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

/** A workflow as DescribeWorkflowExecution gives it, values decoded. */
export interface WorkflowDescription {
  /** RUNNING, COMPLETED, … as the SDK names them. */
  status: string;
  memo: Record<string, unknown>;
  /** By search attribute name (workflows/engine/search-attributes.ts). */
  searchAttributes: Record<string, unknown>;
}

export interface WorkflowReader {
  /** Undefined when no workflow has that ID. */
  describe(workflowId: string): Promise<WorkflowDescription | undefined>;
  /** The `view` query's answer (workflows/engine/definitions.ts), within `timeoutMs`. */
  queryView(workflowId: string, timeoutMs: number): Promise<unknown>;
}

interface MemoSummary {
  phase?: string | null;
  provider?: string | null;
  step?: string | null;
  lastError?: string | null;
}

/** A kind's view may add fields; a ModelDeployment's adds its provider. */
type View = LoopView & { provider?: string };

/** The search attributes read here, by name (kept free of the SDK's key objects: `status` loads no SDK). */
const attribute = (d: WorkflowDescription, name: 'MdProvider' | 'MdPhase' | 'K8sPhase'): string | undefined => {
  const v = d.searchAttributes[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : undefined;
};

/** `noun` names the object in the note for a missing workflow ("… when its watcher sees the deployment"). */
export async function workflowState(reader: WorkflowReader, workflowId: string, opts: { noun?: string; queryTimeoutMs?: number } = {}): Promise<WorkflowState> {
  const { noun = 'object', queryTimeoutMs = 3_000 } = opts;
  const empty = { step: undefined, waitingFor: undefined, provider: undefined, phase: undefined, lastError: undefined };
  let description: WorkflowDescription | undefined;
  try {
    description = await reader.describe(workflowId);
  } catch (err) {
    return { workflowId, status: 'UNKNOWN', source: 'none', ...empty, note: `cannot describe the workflow: ${firstLine((err as Error).message)}` };
  }
  if (!description) {
    return { workflowId, status: 'NOT_FOUND', source: 'none', ...empty, note: `no workflow yet: the controller starts one when its watcher sees the ${noun}` };
  }
  const status = description.status;
  try {
    const view = (await reader.queryView(workflowId, queryTimeoutMs)) as View;
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
    const memo = (description.memo.summary ?? {}) as MemoSummary;
    // Runs begun at a code level keep the phase and provider in search attributes only (the memo holds a failure).
    return {
      workflowId,
      status,
      source: 'memo',
      step: memo.step ?? undefined,
      waitingFor: undefined,
      provider: memo.provider ?? attribute(description, 'MdProvider'),
      phase: memo.phase ?? attribute(description, 'MdPhase') ?? attribute(description, 'K8sPhase'),
      lastError: memo.lastError ? { message: memo.lastError } : undefined,
      note: `no worker answered the view query (${firstLine((err as Error).message)}); showing the workflow's last summary: is the core worker running?`,
    };
  }
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.replace(/[.\s]+$/, '');
}
