// `kubeairunway pause|resume [KIND/]NAMESPACE/NAME`: sets or removes the annotation
// `kubeairunway.ai/reconcile-paused: "true"`, then waits for the controller to acknowledge it: by the
// object's status where the kind has a condition for it (a ModelDeployment's ReconcilePaused), else by
// its workflow's view (step `paused`, or another once resumed).

import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { parseDuration } from '../../workflows/engine/durations.ts';
import { presentationFor } from './kind-presentation.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { startProgress } from './progress.ts';
import { getObject, kubeFailure, objectName, objectRef, openTarget, openTemporal, requireObject, type KubeSession, type TemporalSession } from './session.ts';
import { describeTarget, plainTarget, type KindTarget, type Target, type TargetFlags } from './target.ts';
import { sdkWorkflowReader } from './workflow-reader-sdk.ts';
import { workflowState, type WorkflowState } from '../../present/workflow-state.ts';

export interface PauseOptions extends KubeOptions, TemporalOptions, TargetFlags {
  output: OperatorOutput;
  wait: boolean;
  timeout: string;
}

export interface PauseReport {
  /** The object's kind, e.g. `ModelDeployment`. */
  kind: string;
  /** The object (a ModelDeployment's name for it, kept for every kind). */
  deployment: Target;
  paused: boolean;
  /** False when the object already was in the requested state. */
  changed: boolean;
  /** Whether the controller acknowledged the change (null: not waited for). */
  acknowledged: boolean | null;
}

/** Whether the workflow's view reflects the requested state: only a live answer counts (the memo may be stale). */
export function workflowAcknowledged(wf: WorkflowState, pause: boolean): boolean {
  if (wf.source !== 'query') return false;
  return pause ? wf.step === 'paused' : wf.step !== 'paused';
}

export async function runPause(io: CliIO, args: string[], opts: PauseOptions, pause: boolean): Promise<ExitCode> {
  const timeoutMs = parseDuration(opts.timeout);
  if (timeoutMs === undefined) throw new CliError(`--timeout takes a duration such as 30s or 2m, got '${opts.timeout}'.`);
  const { kube, target } = openTarget(args[0]!, opts);
  const obj = await requireObject(kube, target);
  // A kind acknowledged by its workflow needs Temporal to wait: found unreachable before anything changes.
  const temporal = opts.wait && !target.kind.presentation.pauseAcknowledged ? await openWorkflowTemporal(opts, io) : undefined;
  try {
    const already = (obj.metadata?.annotations?.[PAUSE_ANNOTATION] === 'true') === pause;
    if (!already) {
      try {
        await kube.objects.mergePatch(objectRef(target), { metadata: { annotations: { [PAUSE_ANNOTATION]: pause ? 'true' : null } } });
      } catch (err) {
        throw kubeFailure(err, `${pause ? 'pause' : 'resume'} ${objectName(target)}`, kube, target.kind.kind);
      }
    }
    const ack = opts.wait ? await waitForAcknowledgement(io, { kube, temporal }, target, obj, pause, timeoutMs) : null;
    const report: PauseReport = { kind: target.kind.kind, deployment: plainTarget(target), paused: pause, changed: !already, acknowledged: ack };
    io.stdout(opts.output === 'table' ? pauseText(report) : formatStructured(report, opts.output));
    if (ack === false) {
      io.stderr(`warning: the controller has not acknowledged the change within ${opts.timeout}; it applies it when it next reconciles (is the controller running?)\n`);
    }
    return 0;
  } finally {
    await temporal?.close();
  }
}

async function openWorkflowTemporal(opts: PauseOptions, io: CliIO): Promise<TemporalSession> {
  try {
    return await openTemporal(opts, io);
  } catch (err) {
    throw new CliError(`${(err as Error).message.replace(/\.$/, '')}; its workflow acknowledges a pause (or pass --no-wait to only set the annotation).`);
  }
}

async function waitForAcknowledgement(
  io: CliIO,
  clients: { kube: KubeSession; temporal: TemporalSession | undefined },
  target: KindTarget,
  seen: AnyObject,
  pause: boolean,
  timeoutMs: number,
): Promise<boolean> {
  const { presentation } = target.kind;
  const workflowId = workflowIdFor(target.kind.kind, { ...plainTarget(target), uid: seen.metadata?.uid ?? '' });
  const progress = startProgress(io, `Waiting for the controller to ${pause ? 'pause' : 'resume'} ${describeTarget(target)} ...`, 'the controller');
  try {
    for (;;) {
      const obj = await getObject(clients.kube, target);
      if (!obj || obj.metadata?.uid !== seen.metadata?.uid) throw new CliError(`${objectName(target)} was deleted.`);
      const done = presentation.pauseAcknowledged
        ? presentation.pauseAcknowledged(obj, pause)
        : workflowAcknowledged(await workflowState(sdkWorkflowReader(clients.temporal!.client), workflowId, { noun: presentation.noun, queryTimeoutMs: 1_000 }), pause);
      if (done) return true;
      if (progress.elapsed() >= timeoutMs) return false;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    progress.stop();
  }
}

export function pauseText(r: PauseReport): string {
  const name = describeTarget({ ...r.deployment, kind: { kind: r.kind } });
  if (r.paused) {
    const state = r.changed ? `Paused ${name}` : `${name} was already paused`;
    return `${state}: the controller leaves it and ${presentationFor(r.kind).owns} as they are until \`kubeairunway resume ${name}\`.\n`;
  }
  const state = r.changed ? `Resumed ${name}` : `${name} was not paused`;
  return `${state}: the controller reconciles it again${r.changed ? ', catching up with any change made meanwhile' : ''}.\n`;
}
