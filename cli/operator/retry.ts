// `kubeairunway retry [KIND/]NAMESPACE/NAME`: runs the workflow's `retry` update, which re-runs the failed
// (or waiting) step at once instead of after its backoff, and answers once the new attempt has ended.
// Every kind's workflow answers the same update.

import { ApplicationFailure, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { RETRY_REFUSED } from '../../workflows/engine/retry-refusal.ts';
import { retryUpdate } from '../../workflows/engine/definitions.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import type { RetryResult } from '../../workflows/engine/view.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { formatDuration } from '../../present/durations.ts';
import { parseDuration } from '../../workflows/engine/durations.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { startProgress } from './progress.ts';
import { firstLine, openTarget, openTemporal, requireObject } from './session.ts';
import { describeTarget, plainTarget, type Target, type TargetFlags } from './target.ts';
import { sdkWorkflowReader } from './workflow-reader-sdk.ts';
import { workflowState, type WorkflowState } from '../../present/workflow-state.ts';

export interface RetryOptions extends KubeOptions, TemporalOptions, TargetFlags {
  output: OperatorOutput;
  timeout: string;
}

export interface RetryReport {
  /** The object's kind, e.g. `ModelDeployment`. */
  kind: string;
  /** The object (a ModelDeployment's name for it, kept for every kind). */
  deployment: { namespace: string; name: string; uid: string };
  workflowId: string;
  retried: string | null;
  /** What the step was waiting for before the retry, when it was waiting rather than failing. */
  wasWaitingFor: string | null;
  previousError: RetryResult['previousError'] | null;
  outcome: RetryResult['outcome'];
  error: RetryResult['error'] | null;
  durationMs: number;
  now: { phase: string | null; step: string | null; waitingFor: string | null; provider: string | null };
}

export async function runRetry(io: CliIO, args: string[], opts: RetryOptions): Promise<ExitCode> {
  const timeoutMs = parseDuration(opts.timeout);
  if (timeoutMs === undefined) throw new CliError(`--timeout takes a duration such as 30s or 2m, got '${opts.timeout}'.`);
  const { kube, target } = openTarget(args[0]!, opts);
  const { kind, presentation } = target.kind;
  const obj = await requireObject(kube, target);
  const uid = obj.metadata?.uid ?? '';
  const workflowId = workflowIdFor(kind, { ...plainTarget(target), uid });
  const temporal = await openTemporal(opts, io);
  try {
    const before = await workflowState(sdkWorkflowReader(temporal.client), workflowId, { noun: presentation.noun });
    if (before.status === 'NOT_FOUND') throw new CliError(`${describeTarget(target)} has no workflow yet: the controller's watcher starts one when it sees the ${presentation.noun}; is the controller running?`);
    if (before.status !== 'RUNNING') throw new CliError(`The workflow of ${describeTarget(target)} is ${before.status.toLowerCase()}: there is nothing left to retry.`);

    const what = before.step && (before.lastError || before.waitingFor) ? `step '${before.step}'` : 'a reconciliation pass';
    const progress = startProgress(io, `Retrying ${what} of ${describeTarget(target)} (workflow ${workflowId}) ...`, 'the new attempt to end');
    let result: RetryResult;
    try {
      result = await temporal.client.withAbortSignal(AbortSignal.timeout(timeoutMs), () => temporal.client.workflow.getHandle(workflowId).executeUpdate(retryUpdate));
    } catch (err) {
      if (progress.elapsed() >= timeoutMs) {
        const hint = before.source === 'memo' ? ' and no core worker answers: is the controller running?' : `; see kubeairunway history ${describeTarget(target)}.`;
        throw new CliError(`The retry of ${describeTarget(target)} did not end within ${opts.timeout}${hint}`);
      }
      if (err instanceof WorkflowNotFoundError) throw new CliError(`The workflow of ${describeTarget(target)} ended before the retry could run.`);
      // The update's validator refused it before it was accepted (a paused object): its reason, as it gave it.
      const refusal = err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === RETRY_REFUSED ? err.cause.message : undefined;
      if (refusal) throw new CliError(`${describeTarget(target)} was not retried: ${refusal}.`);
      throw new CliError(`The retry of ${describeTarget(target)} failed: ${firstLine((err as Error).message)}.`);
    } finally {
      progress.stop();
    }
    const durationMs = progress.elapsed();
    const after = await workflowState(sdkWorkflowReader(temporal.client), workflowId, { noun: presentation.noun });
    const report = retryReport(kind, plainTarget(target), uid, workflowId, before, result, after, durationMs);
    io.stdout(opts.output === 'table' ? retryText(report) : formatStructured(report, opts.output));
    return result.outcome === 'failed' ? 1 : 0;
  } finally {
    await temporal.close();
  }
}

function retryReport(
  kind: string,
  target: Target,
  uid: string,
  workflowId: string,
  before: WorkflowState,
  result: RetryResult,
  after: WorkflowState,
  durationMs: number,
): RetryReport {
  return {
    kind,
    deployment: { ...target, uid },
    workflowId,
    retried: result.retried ?? null,
    wasWaitingFor: result.previousError ? null : (before.waitingFor ?? null),
    previousError: result.previousError ?? null,
    outcome: result.outcome,
    error: result.error ?? null,
    durationMs,
    now: { phase: after.phase ?? null, step: after.step ?? null, waitingFor: after.waitingFor ?? null, provider: after.provider ?? null },
  };
}

export function retryText(r: RetryReport): string {
  const name = describeTarget({ ...r.deployment, kind: { kind: r.kind } });
  const lines: string[] = [];
  if (!r.retried) lines.push(`Nothing had failed or was waiting in ${name}; ran a fresh reconciliation pass.`);
  else if (r.previousError) lines.push(`Retried step '${r.retried}' of ${name}, which had failed: ${r.previousError.type}: ${r.previousError.message}`);
  else lines.push(`Retried step '${r.retried}' of ${name}${r.wasWaitingFor ? `, which was waiting for ${r.wasWaitingFor}` : ''}.`);

  const took = formatDuration(r.durationMs);
  // The step may have moved on since (a watch event starts the next pass); phase and provider have not.
  const state = [r.now.phase && `phase ${r.now.phase}`, r.now.provider && `provider ${r.now.provider}`].filter(Boolean).join(', ');
  if (r.outcome === 'failed' && r.error) lines.push(`The new attempt failed at step '${r.error.step}' (${took}): ${r.error.type}: ${r.error.message}`);
  else if (r.outcome === 'waiting') lines.push(`The new attempt ended in ${took} and is waiting${r.now.waitingFor ? ` for ${r.now.waitingFor}` : ''}${state ? ` (${state})` : ''}.`);
  else lines.push(`The new attempt succeeded in ${took}${state ? `: ${state}` : ''}.`);
  return `${lines.join('\n')}\n`;
}
