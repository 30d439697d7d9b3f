// DynamoGraphDeployment status → unified status (seed 001 §4.9, seed 000 "Status Mapping"):
//   state: successful → Running
//   state: deploying  → Deploying
//   state: failed     → Failed, message from status.message
// Dynamo also writes `pending` (→ Pending); a missing or unknown state means the operator has not
// reported yet, so the deployment is still Deploying. Replicas count worker services only (seed
// Example 3: desired 6 = 2 prefill + 4 decode; the Frontend is not a model replica).

import type { UnifiedStatus } from '../contract.ts';
import { conditions, count, field, nonEmpty, record, sortedEntries, str } from '../shared/read.ts';
import { unifiedStatus } from '../shared/unified-status.ts';
import { DYNAMO_RESOURCE } from './config.ts';
import { FRONTEND_PORT, FRONTEND_SERVICE_SUFFIX } from './defaults.ts';

export function mapDynamoStatus(upstream: unknown): UnifiedStatus {
  if (upstream === undefined || upstream === null) {
    return unifiedStatus('Pending', `${DYNAMO_RESOURCE.kind} not created yet`, { desired: 0, ready: 0 }, undefined);
  }
  const name = str(field(upstream, 'metadata', 'name'));
  const endpoint = name ? { service: `${name}-${FRONTEND_SERVICE_SUFFIX}`, port: FRONTEND_PORT } : undefined;
  const workers = workerCounts(upstream);
  const state = str(field(upstream, 'status', 'state'));

  switch (state) {
    case 'successful':
      return unifiedStatus(
        'Running',
        undefined,
        {
          desired: workers.desired,
          ready: workers.ready ?? workers.desired,
          ...(workers.available !== undefined ? { available: workers.available } : {}),
        },
        endpoint,
      );
    case 'failed':
      return unifiedStatus('Failed', failureMessage(upstream), replicasInProgress(workers), endpoint);
    case 'deploying':
      return unifiedStatus('Deploying', undefined, replicasInProgress(workers), endpoint);
    case 'pending':
      return unifiedStatus('Pending', undefined, replicasInProgress(workers), endpoint);
    default: {
      const message =
        state === undefined || state === ''
          ? `Waiting for ${DYNAMO_RESOURCE.kind} status`
          : `${DYNAMO_RESOURCE.kind} reports unknown state '${state}'`;
      return unifiedStatus('Deploying', message, replicasInProgress(workers), endpoint);
    }
  }
}

interface WorkerCounts {
  desired: number;
  /** Sums of what the operator reports per worker service; undefined when it reports nothing. */
  ready?: number;
  available?: number;
}

function workerCounts(upstream: unknown): WorkerCounts {
  const statuses = record(field(upstream, 'status', 'services'));
  let desired = 0;
  let ready: number | undefined;
  let available: number | undefined;
  for (const [serviceName, service] of sortedEntries(field(upstream, 'spec', 'services'))) {
    if (str(field(service, 'componentType')) !== 'worker') continue;
    desired += count(field(service, 'replicas')) ?? 1;
    const observed = statuses[serviceName];
    const r = count(field(observed, 'readyReplicas'));
    const a = count(field(observed, 'availableReplicas'));
    if (r !== undefined) ready = (ready ?? 0) + r;
    if (a !== undefined) available = (available ?? 0) + a;
  }
  return { desired, ready, available };
}

function replicasInProgress(workers: WorkerCounts): UnifiedStatus['replicas'] {
  return {
    desired: workers.desired,
    ready: workers.ready ?? 0,
    ...(workers.available !== undefined ? { available: workers.available } : {}),
  };
}

function failureMessage(upstream: unknown): string {
  const message = nonEmpty(field(upstream, 'status', 'message'));
  if (message) return message;
  const failed = conditions(upstream).find((c) => c.status === 'False' && c.message);
  return failed?.message ?? `${DYNAMO_RESOURCE.kind} failed`;
}
