// FlameCluster status from its pods (seed 004 §5.4): ready counts, the endpoint, a state and a message
// that says what is missing. Pure; it imports only api/flame/, so workflow code could use it too.
//
// State, as the HLD defines it:
// - Failed: the session manager pod failed, or executors were requested and every one of them failed;
// - Running: the session manager is ready and at least one executor is;
// - Pending: anything else, including 0 replicas (our decision: scale to zero is allowed, but nothing can
//   run on a cluster with no executors, so it is not Running either).

import { flameNames, sessionManagerEndpoint } from '../../api/flame/names.ts';
import type { FlameCluster, FlameClusterState, FlameClusterStatus } from '../../api/flame/types.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';

export const NO_EXECUTORS_MESSAGE = 'No executors requested (spec.executorManager.replicas is 0)';
export const HEALTHY_MESSAGE = 'All components healthy';

interface PodStatus {
  phase?: string;
  reason?: string;
  message?: string;
  conditions?: { type?: string; status?: string }[];
  containerStatuses?: { name?: string; state?: { waiting?: { reason?: string }; terminated?: { reason?: string } } }[];
  initContainerStatuses?: PodStatus['containerStatuses'];
}

/**
 * `pods`: the cluster's pods (others are ignored by name). Pods already terminating do not count: they
 * are on their way out. `configGeneration` comes from the caller, which tracks configuration changes.
 */
export function flameStatus(cluster: FlameCluster, pods: readonly AnyObject[], configGeneration: number): FlameClusterStatus {
  const name = cluster.metadata.name;
  const requested = cluster.spec?.executorManager?.replicas;
  const replicas = typeof requested === 'number' && Number.isInteger(requested) && requested > 0 ? requested : 0;
  const live = new Map(pods.filter((p) => !p.metadata?.deletionTimestamp).map((p) => [p.metadata?.name, p]));

  const sessionManager = live.get(flameNames.sessionManager(name));
  const executors = Array.from({ length: replicas }, (_, i) => live.get(flameNames.executor(name, i)));
  const sessionManagerReady = sessionManager !== undefined && isReady(sessionManager);
  const ready = executors.filter((p) => p !== undefined && isReady(p)).length;
  const { state, message } = summary(sessionManager, sessionManagerReady, executors, ready, replicas);

  return {
    sessionManager: { ready: sessionManagerReady ? 1 : 0, endpoint: sessionManagerEndpoint(name) },
    executorManager: { replicas, ready },
    state,
    configGeneration,
    observedGeneration: cluster.metadata.generation ?? 0,
    message,
  };
}

function summary(
  sessionManager: AnyObject | undefined,
  sessionManagerReady: boolean,
  executors: (AnyObject | undefined)[],
  ready: number,
  replicas: number,
): { state: FlameClusterState; message: string } {
  if (sessionManager && phaseOf(sessionManager) === 'Failed') {
    return { state: 'Failed', message: `Session manager pod failed: ${failureOf(sessionManager)}` };
  }
  if (replicas === 0) return { state: 'Pending', message: NO_EXECUTORS_MESSAGE };
  if (executors.every((p) => p !== undefined && phaseOf(p) === 'Failed')) {
    const first = executors[0]!;
    return { state: 'Failed', message: `All ${replicas} executor pods failed (${first.metadata?.name}: ${failureOf(first)})` };
  }
  const executorsReady = `${ready}/${replicas} executors ready`;
  if (!sessionManagerReady) {
    const why = sessionManager ? waitingReason(sessionManager) : 'its pod does not exist yet';
    return { state: 'Pending', message: `Waiting for the session manager to be ready${why ? ` (${why})` : ''}; ${executorsReady}` };
  }
  if (ready === 0) return { state: 'Pending', message: `Waiting for an executor to be ready; ${executorsReady}` };
  return { state: 'Running', message: ready === replicas ? HEALTHY_MESSAGE : executorsReady };
}

/** Ready as the HLD means it: phase Running and the Ready condition True. */
export function isReady(pod: AnyObject): boolean {
  const status = statusOf(pod);
  return status.phase === 'Running' && (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function phaseOf(pod: AnyObject): string | undefined {
  return statusOf(pod).phase;
}

/** Why a pod failed, from its status: "Evicted: The node was low on memory.", or a container's termination reason. */
function failureOf(pod: AnyObject): string {
  const { reason, message, containerStatuses } = statusOf(pod);
  if (reason && message) return `${reason}: ${message}`;
  const terminated = (containerStatuses ?? []).map((c) => c.state?.terminated?.reason).find(Boolean);
  return message ?? reason ?? (terminated ? `container terminated (${terminated})` : 'no reason reported');
}

/** What a pod that is not ready is stuck on, when its status says: "ImagePullBackOff", "Pending", ... */
function waitingReason(pod: AnyObject): string | undefined {
  const status = statusOf(pod);
  const containers = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
  const waiting = containers.map((c) => (c.state?.waiting?.reason ? `${c.name}: ${c.state.waiting.reason}` : undefined)).find(Boolean);
  return waiting ?? (status.phase && status.phase !== 'Running' ? `pod ${status.phase}` : undefined);
}

function statusOf(pod: AnyObject): PodStatus {
  const status = pod.status;
  return typeof status === 'object' && status !== null ? (status as PodStatus) : {};
}
