// RayService status → unified status (seed 001 §4.9, seed 000 "Status Mapping"):
//   serviceStatus: Running → Running
//   serviceStatus: Pending → Pending
//   serviceStatus: Failed  → Failed, message from the Serve statuses
// Older KubeRay releases wrote finer values (`FailedToGetOrCreateRayCluster`, ...): any value starting
// with "Failed" is a failure. Newer releases may leave serviceStatus empty and report a Ready
// condition instead, which is used when serviceStatus says nothing.

import type { UnifiedStatus } from '../contract.ts';
import { conditions, count, field, findCondition, list, nonEmpty, sortedEntries, str } from '../shared/read.ts';
import { unifiedStatus } from '../shared/unified-status.ts';
import { KUBERAY_RESOURCE } from './config.ts';
import { SERVE_PORT, SERVE_SERVICE_SUFFIX } from './defaults.ts';

const HEALTHY = new Set(['RUNNING', 'HEALTHY']);

export function mapKuberayStatus(upstream: unknown): UnifiedStatus {
  if (upstream === undefined || upstream === null) {
    return unifiedStatus('Pending', `${KUBERAY_RESOURCE.kind} not created yet`, { desired: 0, ready: 0 }, undefined);
  }
  const name = str(field(upstream, 'metadata', 'name'));
  const endpoint = name ? { service: `${name}-${SERVE_SERVICE_SUFFIX}`, port: SERVE_PORT } : undefined;
  const desired = desiredWorkers(upstream);
  const cluster = field(upstream, 'status', 'activeServiceStatus', 'rayClusterStatus');
  const readyCount = count(field(cluster, 'readyWorkerReplicas'));
  const availableCount = count(field(cluster, 'availableWorkerReplicas'));
  const replicas = (ready: number): UnifiedStatus['replicas'] => ({
    desired,
    ready,
    ...(availableCount !== undefined ? { available: availableCount } : {}),
  });

  const serviceStatus = nonEmpty(field(upstream, 'status', 'serviceStatus'));
  if (serviceStatus === 'Running') return unifiedStatus('Running', undefined, replicas(readyCount ?? desired), endpoint);
  if (serviceStatus === 'Pending') return unifiedStatus('Pending', undefined, replicas(readyCount ?? 0), endpoint);
  if (serviceStatus?.startsWith('Failed')) {
    return unifiedStatus('Failed', serveFailureMessage(upstream) ?? serviceStatus, replicas(readyCount ?? 0), endpoint);
  }
  if (serviceStatus !== undefined) {
    return unifiedStatus('Deploying', `${KUBERAY_RESOURCE.kind} serviceStatus is ${serviceStatus}`, replicas(readyCount ?? 0), endpoint);
  }

  const ready = findCondition(conditions(upstream), 'Ready');
  if (ready?.status === 'True') return unifiedStatus('Running', undefined, replicas(readyCount ?? desired), endpoint);
  const message = ready?.message ?? `Waiting for ${KUBERAY_RESOURCE.kind} status`;
  return unifiedStatus('Deploying', message, replicas(readyCount ?? 0), endpoint);
}

function desiredWorkers(upstream: unknown): number {
  let total = 0;
  for (const group of list(field(upstream, 'spec', 'rayClusterConfig', 'workerGroupSpecs'))) {
    total += count(field(group, 'replicas')) ?? 0;
  }
  return total;
}

/**
 * Messages of unhealthy Serve applications and deployments, in name order: the current map form
 * (`applicationStatuses.<app>.serveDeploymentStatuses.<deployment>`) and the older list form
 * (`serveStatuses[]` / `serveDeploymentStatuses[]`).
 */
export function serveFailureMessage(upstream: unknown): string | undefined {
  const active = field(upstream, 'status', 'activeServiceStatus');
  const messages: string[] = [];
  const add = (label: string, entry: unknown): void => {
    const status = str(field(entry, 'status'));
    const message = nonEmpty(field(entry, 'message'));
    if (message && !(status && HEALTHY.has(status.toUpperCase()))) messages.push(`${label}: ${message}`);
  };
  for (const [app, appStatus] of sortedEntries(field(active, 'applicationStatuses'))) {
    add(app, appStatus);
    for (const [deployment, deploymentStatus] of sortedEntries(field(appStatus, 'serveDeploymentStatuses'))) {
      add(`${app}/${deployment}`, deploymentStatus);
    }
  }
  for (const key of ['serveStatuses', 'serveDeploymentStatuses']) {
    for (const entry of list(field(active, key))) add(str(field(entry, 'name')) ?? key, entry);
  }
  return messages.length > 0 ? messages.join('; ') : undefined;
}
