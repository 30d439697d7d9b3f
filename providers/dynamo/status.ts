// DynamoGraphDeployment status → unified status (seed 001 §4.9, seed 000 "Status Mapping"), for both
// API versions. What the upstream status schema declares (the same in v1alpha1 and v1beta1 but for the
// per-component map's name): `state` (enum initializing | pending | successful | failed, default
// initializing), `conditions` (Ready among them), `observedGeneration`, and per-component replica counts
// in `status.services` (v1alpha1) or `status.components` (v1beta1), keyed by component name.
//   state: successful → Running
//   state: failed     → Failed, message from the conditions (the schema has no `status.message`)
//   state: pending    → Deploying (the operator's word while components roll out: Ready is False)
//   state: initializing, the seed's `deploying` → Deploying
// A missing or unknown state means the operator has not reported yet, so the deployment is still
// Deploying. Replicas count worker components only (seed Example 3: desired 6 = 2 prefill + 4 decode;
// the Frontend is not a model replica).

import type { UnifiedStatus } from '../contract.ts';
import { conditions, count, field, list, record, sortedEntries, str } from '../shared/read.ts';
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
    case 'pending':
    case 'initializing':
    case 'deploying':
      return unifiedStatus('Deploying', undefined, replicasInProgress(workers), endpoint);
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
  /** Sums of what the operator reports per worker component; undefined when it reports nothing. */
  ready?: number;
  available?: number;
}

/** A worker component of either version: its name and desired replicas. */
interface Worker {
  name: string;
  replicas: number;
}

const WORKER_TYPES_V1BETA1 = ['worker', 'prefill', 'decode'];

/**
 * v1beta1 lists its components (`spec.components[]`, role in `type`) and reports them in
 * `status.components`; v1alpha1 maps them (`spec.services`, role in `componentType`) and reports them in
 * `status.services`. Whichever the object holds is read; an object holds one or the other.
 */
function workerCounts(upstream: unknown): WorkerCounts {
  const listed = field(upstream, 'spec', 'components');
  const workers: Worker[] = Array.isArray(listed)
    ? list(listed)
        .filter((c) => WORKER_TYPES_V1BETA1.includes(str(field(c, 'type')) ?? ''))
        .map((c) => ({ name: str(field(c, 'name')) ?? '', replicas: count(field(c, 'replicas')) ?? 1 }))
    : sortedEntries(field(upstream, 'spec', 'services'))
        .filter(([, s]) => str(field(s, 'componentType')) === 'worker')
        .map(([name, s]) => ({ name, replicas: count(field(s, 'replicas')) ?? 1 }));
  const statuses = record(field(upstream, 'status', Array.isArray(listed) ? 'components' : 'services'));
  let desired = 0;
  let ready: number | undefined;
  let available: number | undefined;
  for (const worker of workers) {
    desired += worker.replicas;
    const observed = Object.hasOwn(statuses, worker.name) ? statuses[worker.name] : undefined;
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

/** The Ready condition's message when it is False (where the operator says why), else any False condition's. */
function failureMessage(upstream: unknown): string {
  const all = conditions(upstream).filter((c) => c.status === 'False' && c.message);
  const failed = all.find((c) => c.type === 'Ready') ?? all[0];
  return failed?.message ?? `${DYNAMO_RESOURCE.kind} failed`;
}
