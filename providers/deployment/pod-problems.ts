// Why a model pod is not ready, read from the pod's status as the kubelet and the scheduler write it:
// an image that cannot be pulled, a container that crashes (or was OOMKilled), a container that cannot
// be created (a Secret or ConfigMap it names is missing), a pod no node can take. Each says whether it
// needs a change to recover (Failed) or is waiting for the cluster (Pending). Never throws.

import type { Phase } from '../../api/types.ts';
import { field, list, nonEmpty, str } from '../shared/read.ts';

export interface PodProblem {
  phase: Extract<Phase, 'Failed' | 'Pending'>;
  /** An event reason: the kubelet's or scheduler's own word for it. */
  reason: string;
  message: string;
}

const IMAGE_PULL = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull']);
const CANNOT_CREATE = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);

export function podProblem(pod: unknown): PodProblem | undefined {
  const name = str(field(pod, 'metadata', 'name')) ?? 'pod';
  for (const status of containerStatuses(pod)) {
    const problem = containerProblem(name, status);
    if (problem) return problem;
  }
  return unschedulable(name, pod);
}

function containerStatuses(pod: unknown): unknown[] {
  return [...list(field(pod, 'status', 'initContainerStatuses')), ...list(field(pod, 'status', 'containerStatuses'))];
}

function containerProblem(pod: string, status: unknown): PodProblem | undefined {
  const container = str(field(status, 'name')) ?? 'container';
  const waiting = str(field(status, 'state', 'waiting', 'reason'));
  const waitingMessage = nonEmpty(field(status, 'state', 'waiting', 'message'));
  const image = str(field(status, 'image')) ?? '';
  if (waiting && IMAGE_PULL.has(waiting)) {
    return failed(waiting, `Pod ${pod}: image '${image}' cannot be pulled (${waiting})${waitingMessage ? `: ${waitingMessage}` : ''}`);
  }
  if (waiting && CANNOT_CREATE.has(waiting)) {
    return failed(waiting, `Pod ${pod}: container '${container}' cannot start (${waiting})${waitingMessage ? `: ${waitingMessage}` : ''}`);
  }
  const last = field(status, 'lastState', 'terminated');
  const current = field(status, 'state', 'terminated');
  const ended = current ?? last;
  const endReason = str(field(ended, 'reason'));
  const exitCode = field(ended, 'exitCode');
  const code = typeof exitCode === 'number' ? ` (exit code ${exitCode})` : '';
  if (endReason === 'OOMKilled') {
    const exit = typeof exitCode === 'number' ? `, exit code ${exitCode}` : '';
    return failed('OOMKilled', `Pod ${pod}: container '${container}' was killed for using more memory than its limit (OOMKilled${exit}); raise resources.memory`);
  }
  if (waiting === 'CrashLoopBackOff') {
    const why = endReason ? `last terminated with ${endReason}${code}` : 'keeps exiting';
    const said = nonEmpty(field(ended, 'message'));
    return failed('CrashLoopBackOff', `Pod ${pod}: container '${container}' is crash-looping (CrashLoopBackOff), ${why}${said ? `: ${lastLine(said)}` : ''}`);
  }
  return undefined;
}

function unschedulable(pod: string, value: unknown): PodProblem | undefined {
  const scheduled = list(field(value, 'status', 'conditions')).find((c) => field(c, 'type') === 'PodScheduled');
  if (field(scheduled, 'status') !== 'False' || field(scheduled, 'reason') !== 'Unschedulable') return undefined;
  const message = nonEmpty(field(scheduled, 'message')) ?? 'no node can run it';
  const claims = /persistentvolumeclaim/i.test(message) ? claimNames(value) : [];
  if (claims.length > 0) {
    const named = claims.map((c) => `'${c}'`).join(', ');
    return { phase: 'Pending', reason: 'Unschedulable', message: `Pod ${pod} is waiting for its PersistentVolumeClaim ${named} (missing or not bound yet): ${message}` };
  }
  return { phase: 'Pending', reason: 'Unschedulable', message: `Pod ${pod} cannot be scheduled: ${message}` };
}

/** The claims a pod mounts: the scheduler's "unbound immediate PersistentVolumeClaims" does not name them. */
function claimNames(pod: unknown): string[] {
  return list(field(pod, 'spec', 'volumes'))
    .map((v) => str(field(v, 'persistentVolumeClaim', 'claimName')))
    .filter((c): c is string => !!c);
}

function failed(reason: string, message: string): PodProblem {
  return { phase: 'Failed', reason, message };
}

/** A termination message can be a whole log tail; its last line says the most. */
function lastLine(text: string): string {
  const lines = text.trim().split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 300);
}
