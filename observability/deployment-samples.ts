// The values of the deployment gauges, computed from ModelDeployment objects. Pure, so the mapping
// (which phase an object counts under, which replica states exist) is tested without a cluster.

import { PHASES } from '../api/constants.ts';
import type { ModelDeployment, Phase } from '../api/types.ts';

export interface DeploymentSamples {
  totals: { namespace: string; phase: Phase; count: number }[];
  replicas: { name: string; namespace: string; state: 'desired' | 'ready' | 'available'; value: number }[];
  phases: { name: string; namespace: string; phase: Phase; value: 0 | 1 }[];
}

/**
 * A deployment being deleted counts as Terminating even before the controller says so; one nobody has
 * reconciled yet counts as Pending (it is waiting for the controller).
 */
export function phaseOf(md: ModelDeployment): Phase {
  if (md.metadata.deletionTimestamp) return 'Terminating';
  return md.status?.phase ?? 'Pending';
}

export function deploymentSamples(deployments: Iterable<ModelDeployment>): DeploymentSamples {
  const counts = new Map<string, Map<Phase, number>>();
  const replicas: DeploymentSamples['replicas'] = [];
  const phases: DeploymentSamples['phases'] = [];

  for (const md of deployments) {
    const namespace = md.metadata.namespace ?? '';
    const name = md.metadata.name ?? '';
    const phase = phaseOf(md);
    // Every phase of a namespace is present (0 when empty), so `== 0` alerts work from the first scrape.
    let byPhase = counts.get(namespace);
    if (!byPhase) counts.set(namespace, (byPhase = new Map(PHASES.map((p) => [p, 0]))));
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);

    for (const p of PHASES) phases.push({ name, namespace, phase: p, value: p === phase ? 1 : 0 });
    const r = md.status?.replicas;
    if (r?.desired !== undefined) replicas.push({ name, namespace, state: 'desired', value: r.desired });
    if (r?.ready !== undefined) replicas.push({ name, namespace, state: 'ready', value: r.ready });
    if (r?.available !== undefined) replicas.push({ name, namespace, state: 'available', value: r.available });
  }

  const totals: DeploymentSamples['totals'] = [];
  for (const [namespace, byPhase] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [phase, count] of byPhase) totals.push({ namespace, phase, count });
  }
  return { totals, replicas, phases };
}
