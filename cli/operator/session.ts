// The clients an operator command uses, opened with errors a person can act on. Loaded lazily by the
// commands: the offline commands never pay for the Kubernetes or Temporal clients.

import { Client, Connection } from '@temporalio/client';
import type { AnyObject, ResourceRef } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { firstLine, openKube, type KubeSession } from './kube-session.ts';
import { DEFAULT_KIND, type OperatorKind } from './kinds.ts';
import { parseTarget, type KindTarget, type TargetFlags } from './target.ts';
import { temporalConnectionSettings } from './temporal-connection.ts';

// Kept here too for the commands that import them from this module.
export { firstLine, openKube, type KubeSession };

/** The target argument checked first (a typo is reported before any kubeconfig problem), then the cluster. */
export function openTarget(arg: string, opts: KubeOptions & TargetFlags): { kube: KubeSession; target: KindTarget } {
  const target = parseTarget(arg, opts);
  const kube = openKube(opts);
  // A bare NAME without -n lives in the kubeconfig context's namespace, as with kubectl.
  return { kube, target: arg.includes('/') || opts.namespace !== undefined ? target : { ...target, namespace: kube.contextNamespace } };
}

/** A Kubernetes failure as one sentence: what was being done, and what to do about it. */
export function kubeFailure(err: unknown, action: string, session: Pick<KubeSession, 'server'>, kind: string = DEFAULT_KIND): CliError {
  if (err instanceof CliError) return err;
  const k = classifyKubeError(err);
  switch (k.type) {
    case 'Unavailable':
      return new CliError(`Cannot reach the Kubernetes API server at ${session.server} to ${action}: ${k.detail}.`);
    case 'Forbidden':
      return new CliError(`Kubernetes denied the request to ${action}: ${k.detail}.`);
    case 'NoKindMatch':
      return new CliError(`The ${kind} CRD is not installed in the cluster at ${session.server} (cannot ${action}).`);
    default:
      return new CliError(`Could not ${action}: ${k.detail}.`);
  }
}

export const objectRef = (t: KindTarget): ResourceRef => ({ ...t.kind.collection, namespace: t.namespace, name: t.name });

/** `ModelDeployment team-a/llama`, `FlameCluster team-a/my-flame`: an object in sentences. */
export const objectName = (t: KindTarget) => `${t.kind.kind} ${t.namespace}/${t.name}`;

export async function getObject(session: KubeSession, target: KindTarget): Promise<AnyObject | undefined> {
  try {
    return await session.objects.get(objectRef(target));
  } catch (err) {
    throw kubeFailure(err, `read ${objectName(target)}`, session, target.kind.kind);
  }
}

export async function requireObject(session: KubeSession, target: KindTarget): Promise<AnyObject> {
  const obj = await getObject(session, target);
  if (!obj) throw new CliError(`${objectName(target)} not found.`);
  return obj;
}

/** Every object of a kind, in one namespace or all, sorted by namespace/name. */
export async function listObjects(session: KubeSession, kind: OperatorKind, namespace: string | undefined): Promise<AnyObject[]> {
  const key = (o: AnyObject) => `${o.metadata?.namespace}/${o.metadata?.name}`;
  try {
    const items = await session.objects.list({ ...kind.collection, namespace });
    return items.sort((a, b) => key(a).localeCompare(key(b)));
  } catch (err) {
    throw kubeFailure(err, `list ${kind.kind}s${namespace ? ` in namespace ${namespace}` : ''}`, session, kind.kind);
  }
}

export interface TemporalSession {
  client: Client;
  namespace: string;
  address: string;
  close(): Promise<void>;
}

export async function openTemporal(opts: TemporalOptions, io: Pick<CliIO, 'readFile'>): Promise<TemporalSession> {
  const settings = await temporalConnectionSettings(opts, io);
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: settings.address, tls: settings.tls, apiKey: settings.apiKey, connectTimeout: '5s' });
  } catch (err) {
    throw new CliError(
      `Cannot reach the Temporal server at ${settings.address}: ${firstLine((err as Error).message)}. Start it, or pass --temporal-address (or set TEMPORAL_ADDRESS).`,
    );
  }
  return {
    client: new Client({ connection, namespace: settings.namespace }),
    namespace: settings.namespace,
    address: settings.address,
    close: () => connection.close(),
  };
}

