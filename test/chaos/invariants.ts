// What must hold once the chaos stops and every part runs again: read from the cluster and from
// Temporal, after waiting (bounded) for the product to converge.
import type { KubeConfig } from '@kubernetes/client-node';
import { Client, Connection } from '@temporalio/client';
import type { ModelDeployment } from '../../api/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import type { Stack } from '../../devstack/stack.ts';
import type { Workload } from './workload.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { viewQuery } from '../../workflows/engine/definitions.ts';

export interface ChaosFindings {
  deploymentsLost: number;
  duplicatedProviderResources: number;
  orphanedProviderResources: number;
  deploymentsNotConverged: number;
  deletionsPastDeadline: number;
  workflowsFailed: number;
  /** One line per finding, for the person reading a failed run. */
  details: string[];
}

const DGD = { group: 'nvidia.com', version: 'v1beta1', plural: 'dynamographdeployments' };

export async function checkInvariants(
  kc: KubeConfig,
  stack: Stack,
  workload: Workload,
  opts: { namespace: string; deadlineMs: number; apiDown?: readonly [number, number][]; convergeWithinMs?: number; log: (line: string) => void },
): Promise<ChaosFindings> {
  const objects = new CustomObjects(kc);
  const until = Date.now() + (opts.convergeWithinMs ?? 240_000);
  let { findings, settled } = await look(objects, workload, opts);
  while (Date.now() < until && !settled) {
    await new Promise((r) => setTimeout(r, 2_000));
    ({ findings, settled } = await look(objects, workload, opts));
  }
  findings.workflowsFailed = await failedWorkflows(stack, findings.details);
  if (findings.deletionsPastDeadline > 0) await describeStuck(stack, objects, workload, findings.details);
  await workload.stop();
  return findings;
}

/** The findings as the cluster stands now; settled once nothing is left to converge or to finish deleting. */
async function look(objects: CustomObjects, workload: Workload, opts: { namespace: string; deadlineMs: number; apiDown?: readonly [number, number][] }): Promise<{ findings: ChaosFindings; settled: boolean }> {
  const details: string[] = [];
  const mds = (await objects.list(workload.collection())) as unknown as ModelDeployment[];
  const dgds = await objects.list({ ...DGD, namespace: opts.namespace });
  const byName = new Map(mds.map((m) => [m.metadata.name!, m]));
  const uids = new Set(mds.map((m) => m.metadata.uid));
  const owned = new Map<string, AnyObject[]>();
  let orphaned = 0;
  for (const d of dgds) {
    const owner = d.metadata?.ownerReferences?.find((o) => o.kind === 'ModelDeployment')?.uid;
    if (!owner || !uids.has(owner)) {
      orphaned++;
      details.push(`orphaned ${d.metadata?.name} (owner ${owner ?? 'none'})`);
      continue;
    }
    owned.set(owner, [...(owned.get(owner) ?? []), d]);
  }

  let lost = 0;
  let notConverged = 0;
  let duplicated = 0;
  for (const [name, replicas] of workload.expected) {
    const md = byName.get(name);
    if (!md) {
      lost++;
      details.push(`lost ${name}`);
      continue;
    }
    const mine = owned.get(md.metadata.uid!) ?? [];
    duplicated += Math.max(0, mine.length - 1);
    if (mine.length > 1) details.push(`${name} has ${mine.length} provider resources`);
    const s = md.status;
    const converged = s?.phase === 'Running' && s.observedGeneration === md.metadata.generation && s.replicas?.desired === replicas && mine.length === 1;
    if (!converged) {
      notConverged++;
      details.push(`${name} not converged: phase ${s?.phase}, observed ${s?.observedGeneration}/${md.metadata.generation}, desired ${s?.replicas?.desired}/${replicas}, ${mine.length} provider resource(s)`);
    }
  }
  let pastDeadline = 0;
  let deleting = 0;
  const now = Date.now();
  for (const [name, d] of workload.deletions) {
    const stillThere = byName.has(name);
    const end = d.goneAt ?? (stillThere ? now : d.requestedAt);
    const down = overlap(opts.apiDown ?? [], d.requestedAt, end);
    const took = end - d.requestedAt - down;
    if (took > opts.deadlineMs) {
      pastDeadline++;
      details.push(`deletion of ${name} took ${Math.round(took / 1000)} s (not counting ${Math.round(down / 1000)} s of API server outage)${stillThere ? ' and is not done' : ''}`);
    }
    if (stillThere) deleting++;
  }
  return {
    findings: { deploymentsLost: lost, duplicatedProviderResources: duplicated, orphanedProviderResources: orphaned, deploymentsNotConverged: notConverged, deletionsPastDeadline: pastDeadline, workflowsFailed: 0, details },
    settled: lost + duplicated + orphaned + notConverged + deleting === 0,
  };
}

/** How much of [from, to] the given spans cover. */
function overlap(spans: readonly [number, number][], from: number, to: number): number {
  return spans.reduce((sum, [a, b]) => sum + Math.max(0, Math.min(b, to) - Math.max(a, from)), 0);
}

/** Workflows that ended in failure (or were timed out or terminated): none may. */
async function failedWorkflows(stack: Stack, details: string[]): Promise<number> {
  const connection = await Connection.connect({ address: stack.temporalAddress });
  try {
    const client = new Client({ connection, namespace: stack.temporalNamespace });
    let failed = 0;
    for await (const wf of client.workflow.list({ query: `WorkflowType = 'modelDeploymentWorkflow' AND ExecutionStatus != 'Running' AND ExecutionStatus != 'Completed' AND ExecutionStatus != 'ContinuedAsNew'` })) {
      failed++;
      details.push(`workflow ${wf.workflowId} ${wf.status.name}`);
    }
    return failed;
  } finally {
    await connection.close();
  }
}

/** For each deletion still not done: its workflow as Temporal sees it, and the object's finalizers and status. */
async function describeStuck(stack: Stack, objects: CustomObjects, workload: Workload, details: string[]): Promise<void> {
  const connection = await Connection.connect({ address: stack.temporalAddress });
  try {
    const client = new Client({ connection, namespace: stack.temporalNamespace });
    const mds = (await objects.list(workload.collection())) as unknown as ModelDeployment[];
    for (const md of mds) {
      if (!workload.deletions.has(md.metadata.name!)) continue;
      const ref = { namespace: md.metadata.namespace!, name: md.metadata.name!, uid: md.metadata.uid! };
      details.push(`  ${ref.name}: finalizers ${JSON.stringify(md.metadata.finalizers)}, deletionTimestamp ${md.metadata.deletionTimestamp}, phase ${md.status?.phase}: ${md.status?.message}`);
      const handle = client.workflow.getHandle(workflowIdFor('ModelDeployment', ref));
      const described = await handle.describe().catch((err: Error) => err);
      if (described instanceof Error) {
        details.push(`  ${ref.name}: no workflow (${described.message})`);
        continue;
      }
      details.push(`  ${ref.name}: workflow ${described.status.name}, history ${described.historyLength} events`);
      const view = await handle.query(viewQuery).catch((err: Error) => `query failed: ${err.message}`);
      details.push(`  ${ref.name}: view ${JSON.stringify(view)}`);
      const history = await handle.fetchHistory().catch(() => undefined);
      const tail = (history?.events ?? []).slice(-12).map((e) => `${e.eventId} ${Object.keys(e).find((k) => k.endsWith('Attributes')) ?? '?'}${e.workflowTaskFailedEventAttributes ? `: ${e.workflowTaskFailedEventAttributes.failure?.message}` : ''}`);
      details.push(`  ${ref.name}: last events ${tail.join(' | ')}`);
    }
  } finally {
    await connection.close();
  }
}
