// Reading a workflow's view in the workflow tests: every kind's workflow answers the `view` query with
// what it returns, so the query is typed by the workflow function the test started.
import { isGrpcDeadlineError, type WorkflowHandle } from '@temporalio/client';
import type { Workflow, WorkflowResultType } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { defineQuery } from '@temporalio/workflow';
import { viewQuery } from '../../workflows/engine/definitions.ts';
import { eventually } from '../support/env.ts';

/** How long one query may take before it is asked again. */
const QUERY_BOUND_MS = 2_000;
const QUERY_ATTEMPTS = 5;

export interface ViewReader<V> {
  view(): Promise<V>;
  /** Polls the view until `ok` holds; the failure names the last view seen. */
  viewWhere(what: string, ok: (v: V) => boolean, timeoutMs?: number, intervalMs?: number): Promise<V>;
  /**
   * Like viewWhere, for a view that a timer brings: between looks the server's clock skips ahead (by
   * `stepMs` at most), so a wait of minutes takes what the workflow's work takes. `timeoutMs` is server time.
   */
  skipUntil(what: string, ok: (v: V) => boolean, timeoutMs?: number, stepMs?: number): Promise<V>;
}

/** How long, in the machine's time, a skipping wait may take whatever its server-time bound. */
const SKIPPING_REAL_BOUND_MS = 60_000;

/**
 * The workflow's result, with the server's clock skipping ahead in steps of at most `stepMs` while it
 * waits. Not the time-skipping client's `result()`, which lets the clock run free until the end: the test
 * server then also skips over the timeouts of an activity that is still running on the machine's time
 * (a stub answers in milliseconds, but on a loaded machine not before a free-running clock passed it).
 * A workflow that never ends fails the wait after SKIPPING_REAL_BOUND_MS of the machine's time.
 */
export async function skippedResult<W extends Workflow>(env: TestWorkflowEnvironment, handle: WorkflowHandle<W>, stepMs = 500): Promise<WorkflowResultType<W>> {
  let ended = false;
  const result = handle.result().finally(() => {
    ended = true;
  });
  const realUntil = Date.now() + SKIPPING_REAL_BOUND_MS;
  while (!ended) {
    if (Date.now() > realUntil) throw new Error(`workflow ${handle.workflowId} did not end within ${SKIPPING_REAL_BOUND_MS} ms of skipping time ahead`);
    await Promise.race([result, env.sleep(stepMs)]);
  }
  return result;
}

/**
 * The view of `handle`'s workflow. Each query is bounded and asked again: the test server holds a query
 * that reaches a run before its first workflow task completed (just after continue-as-new) for a minute
 * or more, while the same query asked again is answered at once.
 */
export function viewReader<W extends Workflow>(env: TestWorkflowEnvironment, handle: WorkflowHandle<W>): ViewReader<WorkflowResultType<W>> {
  const query = defineQuery<WorkflowResultType<W>>(viewQuery.name);
  const view = async (): Promise<WorkflowResultType<W>> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await env.connection.withDeadline(Date.now() + QUERY_BOUND_MS, () => handle.query(query));
      } catch (err) {
        if (!isGrpcDeadlineError(err) || attempt === QUERY_ATTEMPTS) throw err;
      }
    }
  };
  const viewWhere = async (what: string, ok: (v: WorkflowResultType<W>) => boolean, timeoutMs = 30_000, intervalMs?: number) => {
    let last: WorkflowResultType<W> | undefined;
    try {
      return await eventually(what, async () => {
        last = await view();
        return ok(last) ? last : undefined;
      }, timeoutMs, intervalMs);
    } catch (err) {
      throw new Error(`${(err as Error).message}; last view: ${JSON.stringify(last)}`);
    }
  };
  const skipUntil = async (what: string, ok: (v: WorkflowResultType<W>) => boolean, timeoutMs = 600_000, stepMs = 1_000) => {
    const until = (await env.currentTimeMs()) + timeoutMs;
    const realUntil = Date.now() + SKIPPING_REAL_BOUND_MS;
    for (;;) {
      const last = await view();
      if (ok(last)) return last;
      if ((await env.currentTimeMs()) > until || Date.now() > realUntil) throw new Error(`timed out waiting for ${what}; last view: ${JSON.stringify(last)}`);
      await env.sleep(stepMs);
    }
  };
  return { view, viewWhere, skipUntil };
}
