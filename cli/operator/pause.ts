// `kubeairunway pause|resume NAMESPACE/NAME`: sets or removes the annotation
// `kubeairunway.ai/reconcile-paused: "true"`, then waits for the controller to acknowledge it (the
// ReconcilePaused condition appears, or goes away).

import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { CliError } from '../errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import type { KubeOptions } from './connection-options.ts';
import { parseDuration } from './durations.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { startProgress } from './progress.ts';
import { deploymentRef, getDeployment, kubeFailure, openTarget, requireDeployment, type KubeSession } from './session.ts';
import { describeTarget, type Target } from './target.ts';

export interface PauseOptions extends KubeOptions {
  namespace?: string;
  output: OperatorOutput;
  wait: boolean;
  timeout: string;
}

export interface PauseReport {
  deployment: Target;
  paused: boolean;
  /** False when the deployment already was in the requested state. */
  changed: boolean;
  /** Whether the controller acknowledged the change (null: not waited for). */
  acknowledged: boolean | null;
}

const pausedCondition = (md: ModelDeployment | undefined) => md?.status?.conditions?.find((c) => c.type === 'ReconcilePaused');

/** Whether the controller's status reflects the requested state. */
export function acknowledged(md: ModelDeployment | undefined, pause: boolean): boolean {
  const condition = pausedCondition(md);
  return pause ? condition?.status === 'True' : condition === undefined || condition.status !== 'True';
}

export async function runPause(io: CliIO, args: string[], opts: PauseOptions, pause: boolean): Promise<ExitCode> {
  const timeoutMs = parseDuration(opts.timeout);
  if (timeoutMs === undefined) throw new CliError(`--timeout takes a duration such as 30s or 2m, got '${opts.timeout}'.`);
  const { kube, target } = openTarget(args[0]!, opts.namespace, opts);
  const md = await requireDeployment(kube, target);
  const already = (md.metadata.annotations?.[PAUSE_ANNOTATION] === 'true') === pause;
  if (!already) {
    try {
      await kube.objects.mergePatch(deploymentRef(target), { metadata: { annotations: { [PAUSE_ANNOTATION]: pause ? 'true' : null } } });
    } catch (err) {
      throw kubeFailure(err, `${pause ? 'pause' : 'resume'} ModelDeployment ${describeTarget(target)}`, kube);
    }
  }
  const ack = opts.wait ? await waitForAcknowledgement(io, kube, target, pause, timeoutMs) : null;
  const report: PauseReport = { deployment: target, paused: pause, changed: !already, acknowledged: ack };
  io.stdout(opts.output === 'table' ? pauseText(report) : formatStructured(report, opts.output));
  if (ack === false) {
    io.stderr(`warning: the controller has not acknowledged the change within ${opts.timeout}; it applies it when it next reconciles (is the controller running?)\n`);
  }
  return 0;
}

async function waitForAcknowledgement(io: CliIO, kube: KubeSession, target: Target, pause: boolean, timeoutMs: number): Promise<boolean> {
  const progress = startProgress(io, `Waiting for the controller to ${pause ? 'pause' : 'resume'} ${describeTarget(target)} ...`, 'the controller');
  try {
    for (;;) {
      const md = await getDeployment(kube, target);
      if (!md) throw new CliError(`ModelDeployment ${describeTarget(target)} was deleted.`);
      if (acknowledged(md, pause)) return true;
      if (progress.elapsed() >= timeoutMs) return false;
      await new Promise((r) => setTimeout(r, 500));
    }
  } finally {
    progress.stop();
  }
}

export function pauseText(r: PauseReport): string {
  const name = describeTarget(r.deployment);
  if (r.paused) {
    const state = r.changed ? `Paused ${name}` : `${name} was already paused`;
    return `${state}: the controller leaves it and its provider resources as they are until \`kubeairunway resume ${name}\`.\n`;
  }
  const state = r.changed ? `Resumed ${name}` : `${name} was not paused`;
  return `${state}: the controller reconciles it again${r.changed ? ', catching up with any change made meanwhile' : ''}.\n`;
}
