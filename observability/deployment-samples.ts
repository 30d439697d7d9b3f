// The values of the deployment gauges, computed from ModelDeployment objects. Pure, so the mapping
// (which phase an object counts under, which replica states exist) is tested without a cluster. The
// objects come from the process's cache as JSON: the status is read field by field, so a status that
// is not what it should be counts as Pending, without replicas, rather than as a label of its own.

import { PHASES } from '../api/constants.ts';
import { isPlainObject } from '../api/overrides.ts';
import type { Phase } from '../api/types.ts';

/** What the gauges read of a ModelDeployment: its name, namespace and deletion, and its status. */
export interface SampledDeployment {
  metadata?: { name?: string; namespace?: string; deletionTimestamp?: string };
  status?: unknown;
}

const isPhase = (value: unknown): value is Phase => (PHASES as readonly unknown[]).includes(value);
const statusOf = (md: SampledDeployment): Record<string, unknown> => (isPlainObject(md.status) ? md.status : {});

export interface DeploymentSamples {
  totals: { namespace: string; phase: Phase; count: number }[];
  replicas: { name: string; namespace: string; state: 'desired' | 'ready' | 'available'; value: number }[];
  phases: { name: string; namespace: string; phase: Phase; value: 0 | 1 }[];
}

/**
 * A deployment being deleted counts as Terminating even before the controller says so; one nobody has
 * reconciled yet counts as Pending (it is waiting for the controller).
 */
export function phaseOf(md: SampledDeployment): Phase {
  if (md.metadata?.deletionTimestamp) return 'Terminating';
  const { phase } = statusOf(md);
  return isPhase(phase) ? phase : 'Pending';
}

export function deploymentSamples(deployments: Iterable<SampledDeployment>): DeploymentSamples {
  const counts = new Map<string, Map<Phase, number>>();
  const replicas: DeploymentSamples['replicas'] = [];
  const phases: DeploymentSamples['phases'] = [];

  for (const md of deployments) {
    const namespace = md.metadata?.namespace ?? '';
    const name = md.metadata?.name ?? '';
    const phase = phaseOf(md);
    // Every phase of a namespace is present (0 when empty), so `== 0` alerts work from the first scrape.
    let byPhase = counts.get(namespace);
    if (!byPhase) counts.set(namespace, (byPhase = new Map(PHASES.map((p) => [p, 0]))));
    byPhase.set(phase, (byPhase.get(phase) ?? 0) + 1);

    for (const p of PHASES) phases.push({ name, namespace, phase: p, value: p === phase ? 1 : 0 });
    const counted = statusOf(md).replicas;
    const r = isPlainObject(counted) ? counted : {};
    for (const state of ['desired', 'ready', 'available'] as const) {
      const value = r[state];
      if (typeof value === 'number') replicas.push({ name, namespace, state, value });
    }
  }

  const totals: DeploymentSamples['totals'] = [];
  for (const [namespace, byPhase] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [phase, count] of byPhase) totals.push({ namespace, phase, count });
  }
  return { totals, replicas, phases };
}
