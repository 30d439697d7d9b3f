// `kubeairunway status [[KIND/]NAMESPACE/NAME]`, or every object of a kind (--kind, ModelDeployments by default).
// It answers about as fast as `kubectl get`: it reads the cluster with the light reader (light-kube.ts)
// and Temporal with plain gRPC (light-temporal.ts), and loads neither @kubernetes/client-node nor the
// Temporal SDK unless the kubeconfig needs the full client (exec plugins and the like) or a call fails.

import type { AnyObject, CollectionRef, ResourceRef } from '../../kube/custom-objects.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import { mapLimit } from './command.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { DEFAULT_KIND, resolveKind, type OperatorKind } from './kinds.ts';
import { openLightKube } from './light-kube.ts';
import { openLightTemporal, type LightTemporal } from './light-temporal.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { parseTarget, type KindTarget, type TargetFlags } from './target.ts';
import { temporalConnectionSettings } from './temporal-connection.ts';
import { workflowState, type WorkflowState } from '../../present/workflow-state.ts';

export interface StatusOptions extends KubeOptions, TemporalOptions, TargetFlags {
  output: OperatorOutput;
}

/** What `status` reads from the cluster, from either reader. */
interface ClusterReader {
  server: string;
  contextNamespace: string;
  get(ref: ResourceRef): Promise<AnyObject | undefined>;
  list(ref: CollectionRef): Promise<AnyObject[]>;
}

async function openCluster(opts: KubeOptions): Promise<ClusterReader> {
  const light = openLightKube(opts);
  if (light) return light;
  const { openKube } = await import('./kube-session.ts');
  const session = openKube(opts);
  return { server: session.server, contextNamespace: session.contextNamespace, get: (ref) => session.objects.get(ref), list: (ref) => session.objects.list(ref) };
}

/** A failed read as the other commands word it (session.ts; loaded only now, with its clients). */
async function failure(err: unknown, action: string, server: string, kind: string): Promise<CliError> {
  const { kubeFailure } = await import('./session.ts');
  return kubeFailure(err, action, { server }, kind);
}

async function readTarget(cluster: ClusterReader, t: KindTarget): Promise<AnyObject> {
  const what = `${t.kind.kind} ${t.namespace}/${t.name}`;
  let obj: AnyObject | undefined;
  try {
    obj = await cluster.get({ ...t.kind.collection, namespace: t.namespace, name: t.name });
  } catch (err) {
    throw await failure(err, `read ${what}`, cluster.server, t.kind.kind);
  }
  if (!obj) throw new CliError(`${what} not found.`);
  return obj;
}

async function listKind(cluster: ClusterReader, kind: OperatorKind, namespace: string | undefined): Promise<AnyObject[]> {
  const key = (o: AnyObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
  try {
    const items = await cluster.list({ ...kind.collection, namespace });
    return items.sort((a, b) => key(a).localeCompare(key(b)));
  } catch (err) {
    throw await failure(err, `list ${kind.kind}s${namespace ? ` in namespace ${namespace}` : ''}`, cluster.server, kind.kind);
  }
}

async function openTemporalReader(opts: TemporalOptions, io: CliIO): Promise<LightTemporal> {
  const settings = await temporalConnectionSettings(opts, io);
  try {
    return await openLightTemporal(settings);
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0]!.replace(/[.\s]+$/, '');
    throw new CliError(`Cannot reach the Temporal server at ${settings.address}: ${reason}. Start it, or pass --temporal-address (or set TEMPORAL_ADDRESS).`);
  }
}

export async function runStatus(io: CliIO, args: string[], opts: StatusOptions): Promise<ExitCode> {
  const single = args[0] !== undefined;
  // The kind and the target are checked before the kubeconfig is read (a typo is reported first).
  const parsed = single ? parseTarget(args[0]!, opts) : undefined;
  const kind = parsed?.kind ?? resolveKind(opts.kind ?? DEFAULT_KIND);
  const cluster = await openCluster(opts);
  // A bare NAME without -n lives in the kubeconfig context's namespace, as with kubectl.
  const target = parsed && !args[0]!.includes('/') && opts.namespace === undefined ? { ...parsed, namespace: cluster.contextNamespace } : parsed;
  const objects = target ? [await readTarget(cluster, target)] : await listKind(cluster, kind, opts.namespace);
  if (objects.length === 0) {
    if (opts.output === 'table') {
      io.stderr(`No ${kind.kind}s found${opts.namespace ? ` in namespace ${opts.namespace}` : ''}.\n`);
      return 0;
    }
  }

  // Without Temporal the cluster's half of the answer is still worth printing; say what is missing.
  let unreachable: string | undefined;
  const temporal = objects.length > 0 ? await openTemporalReader(opts, io).catch((err: Error) => void (unreachable = err.message)) : undefined;
  const view = kind.presentation.status;
  try {
    const now = Date.now();
    const rows = await mapLimit(objects, 8, async (obj) => {
      const m = obj.metadata ?? {};
      const id = workflowIdFor(kind.kind, { namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '' });
      const wf = temporal ? await workflowState(temporal, id, { noun: kind.presentation.noun }) : offline(id, unreachable);
      return view.row(obj, wf, now);
    });
    if (opts.output !== 'table') io.stdout(formatStructured(single ? rows[0] : rows, opts.output));
    else if (single) io.stdout(view.detail(rows[0]!));
    else io.stdout(view.table(rows));
  } finally {
    await temporal?.close();
  }
  return 0;
}

function offline(workflowId: string, reason: string | undefined): WorkflowState {
  const note = `${(reason ?? 'Temporal is not reachable').replace(/\.$/, '')}; steps and errors are unknown`;
  return { workflowId, status: 'UNKNOWN', source: 'none', step: undefined, waitingFor: undefined, provider: undefined, phase: undefined, lastError: undefined, note };
}
