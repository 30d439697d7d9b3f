// Deployment(s) and their pods → unified status. The Deployments give the counts (desired =
// spec.replicas, ready = status.readyReplicas, available = status.availableReplicas, summed over the
// serving roles); the pods give the reason a replica is not ready.
//
//   every desired replica ready                           → Running (a pod of a stuck update is named in the message)
//   a pod that cannot recover by itself (image pull,
//   crash loop, OOMKilled, container cannot be created)   → Failed, that pod's reason
//   Deployment ReplicaFailure / ProgressDeadlineExceeded  → Failed, the Deployment's message
//   a pod no node can take                                → Pending, the scheduler's message
//   otherwise                                             → Deploying, "<ready>/<desired> replicas ready"
//
// The endpoint is the primary Deployment's Service: same name, the port its container serves.

import type { RelatedObjects, UnifiedStatus } from '../contract.ts';
import { count, field, list, str } from '../shared/read.ts';
import { unifiedStatus } from '../shared/unified-status.ts';
import { MODEL_DEPLOYMENT_LABEL } from '../shared/metadata.ts';
import { DEPLOYMENT_RESOURCE } from './config.ts';
import { podProblem, type PodProblem } from './pod-problems.ts';

export function mapDeploymentStatus(upstream: unknown, related: RelatedObjects = {}): UnifiedStatus {
  if (upstream === undefined || upstream === null) {
    return unifiedStatus('Pending', `${DEPLOYMENT_RESOURCE.kind} not created yet`, { desired: 0, ready: 0 }, undefined);
  }
  const deployments = servingDeployments(upstream, related.Deployment ?? []);
  const desired = sum(deployments, 'spec', 'replicas');
  const ready = sum(deployments, 'status', 'readyReplicas');
  const available = sum(deployments, 'status', 'availableReplicas');
  const replicas = { desired, ready, available };
  const endpoint = endpointOf(upstream);
  const problem = firstProblem(related.Pod ?? []);

  if (ready >= desired) {
    const message = desired === 0 ? 'Scaled to zero replicas' : problem?.message;
    return withReason(unifiedStatus('Running', message, replicas, endpoint), problem && desired > 0 ? problem : undefined);
  }
  if (problem?.phase === 'Failed') return withReason(unifiedStatus('Failed', problem.message, replicas, endpoint), problem);
  const stuck = deploymentFailure(deployments);
  if (stuck) return withReason(unifiedStatus('Failed', stuck.message, replicas, endpoint), stuck);
  if (problem) return withReason(unifiedStatus('Pending', problem.message, replicas, endpoint), problem);
  return unifiedStatus('Deploying', `${ready}/${desired} replicas ready`, replicas, endpoint);
}

/** The primary and the other roles' Deployments of the same ModelDeployment, each once. */
function servingDeployments(primary: unknown, listed: readonly unknown[]): unknown[] {
  const owner = str(field(primary, 'metadata', 'labels', MODEL_DEPLOYMENT_LABEL));
  const name = str(field(primary, 'metadata', 'name'));
  const others = listed.filter((d) => owner !== undefined && str(field(d, 'metadata', 'labels', MODEL_DEPLOYMENT_LABEL)) === owner && str(field(d, 'metadata', 'name')) !== name);
  return [primary, ...others];
}

function sum(objects: readonly unknown[], ...path: string[]): number {
  return objects.reduce<number>((total, o) => total + (count(field(o, ...path)) ?? 0), 0);
}

function endpointOf(primary: unknown): UnifiedStatus['endpoint'] {
  const service = str(field(primary, 'metadata', 'name'));
  const container = list(field(primary, 'spec', 'template', 'spec', 'containers'))[0];
  const port = count(field(list(field(container, 'ports'))[0], 'containerPort'));
  return service && port ? { service, port } : undefined;
}

/** The first problem among pods not being deleted, in name order so the message is stable. */
function firstProblem(pods: readonly unknown[]): PodProblem | undefined {
  const live = pods.filter((p) => field(p, 'metadata', 'deletionTimestamp') === undefined);
  const named = [...live].sort((a, b) => (str(field(a, 'metadata', 'name')) ?? '').localeCompare(str(field(b, 'metadata', 'name')) ?? ''));
  const problems = named.map(podProblem).filter((p): p is PodProblem => p !== undefined);
  return problems.find((p) => p.phase === 'Failed') ?? problems[0];
}

/** A Deployment that gave up: pods cannot be created (quota, admission) or the rollout passed its deadline. */
function deploymentFailure(deployments: readonly unknown[]): PodProblem | undefined {
  for (const d of deployments) {
    for (const c of list(field(d, 'status', 'conditions'))) {
      const type = field(c, 'type');
      const reason = str(field(c, 'reason')) ?? '';
      const failing = (type === 'ReplicaFailure' && field(c, 'status') === 'True') || (type === 'Progressing' && reason === 'ProgressDeadlineExceeded');
      if (failing) {
        const name = str(field(d, 'metadata', 'name')) ?? 'Deployment';
        return { phase: 'Failed', reason: reason || String(type), message: `Deployment ${name}: ${str(field(c, 'message')) ?? reason}` };
      }
    }
  }
  return undefined;
}

function withReason(status: UnifiedStatus, problem: PodProblem | undefined): UnifiedStatus {
  return problem ? { ...status, notReadyReason: problem.reason } : status;
}
