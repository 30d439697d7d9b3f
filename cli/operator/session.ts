// The clients an operator command uses, opened with errors a person can act on. Loaded lazily by the
// commands: the offline commands never pay for the Kubernetes or Temporal clients.

import { KubeConfig } from '@kubernetes/client-node';
import { Client, Connection } from '@temporalio/client';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { CliError } from '../errors.ts';
import type { CliIO } from '../io.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { describeTarget, parseTarget, type Target } from './target.ts';
import { temporalConnectionSettings } from './temporal-connection.ts';

export interface KubeSession {
  kc: KubeConfig;
  objects: CustomObjects;
  /** The namespace of the kubeconfig context, for a NAME given without one. */
  contextNamespace: string;
  server: string;
}

export function openKube(opts: KubeOptions): KubeSession {
  const kc = new KubeConfig();
  try {
    if (opts.kubeconfig) kc.loadFromFile(opts.kubeconfig);
    else kc.loadFromDefault();
  } catch (err) {
    const reason = err instanceof TypeError ? 'it is not a kubeconfig file' : firstLine((err as Error).message);
    throw new CliError(`Cannot load the kubeconfig${opts.kubeconfig ? ` ${opts.kubeconfig}` : ''}: ${reason}.`);
  }
  if (opts.context) {
    if (!kc.getContexts().some((c) => c.name === opts.context)) throw new CliError(`The kubeconfig has no context '${opts.context}'.`);
    kc.setCurrentContext(opts.context);
  }
  const server = kc.getCurrentCluster()?.server;
  if (!server) throw new CliError('The kubeconfig names no cluster: pass --kubeconfig or set KUBECONFIG.');
  const context = kc.getContextObject(kc.getCurrentContext());
  return { kc, objects: new CustomObjects(kc), contextNamespace: context?.namespace ?? 'default', server };
}

/** The target argument checked first (a typo is reported before any kubeconfig problem), then the cluster. */
export function openTarget(arg: string, namespace: string | undefined, opts: KubeOptions): { kube: KubeSession; target: Target } {
  const target = parseTarget(arg, namespace);
  const kube = openKube(opts);
  // A bare NAME without -n lives in the kubeconfig context's namespace, as with kubectl.
  return { kube, target: arg.includes('/') || namespace !== undefined ? target : { ...target, namespace: kube.contextNamespace } };
}

/** A Kubernetes failure as one sentence: what was being done, and what to do about it. */
export function kubeFailure(err: unknown, action: string, session: Pick<KubeSession, 'server'>): CliError {
  if (err instanceof CliError) return err;
  const k = classifyKubeError(err);
  switch (k.type) {
    case 'Unavailable':
      return new CliError(`Cannot reach the Kubernetes API server at ${session.server} to ${action}: ${k.detail}.`);
    case 'Forbidden':
      return new CliError(`Kubernetes denied the request to ${action}: ${k.detail}.`);
    case 'NoKindMatch':
      return new CliError(`The ModelDeployment CRD is not installed in the cluster at ${session.server} (cannot ${action}).`);
    default:
      return new CliError(`Could not ${action}: ${k.detail}.`);
  }
}

export const deploymentRef = (t: Target) => ({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace: t.namespace, name: t.name });

export async function getDeployment(session: KubeSession, target: Target): Promise<ModelDeployment | undefined> {
  try {
    return (await session.objects.get(deploymentRef(target))) as unknown as ModelDeployment | undefined;
  } catch (err) {
    throw kubeFailure(err, `read ModelDeployment ${describeTarget(target)}`, session);
  }
}

export async function requireDeployment(session: KubeSession, target: Target): Promise<ModelDeployment> {
  const md = await getDeployment(session, target);
  if (!md) throw new CliError(`ModelDeployment ${describeTarget(target)} not found.`);
  return md;
}

export async function listDeployments(session: KubeSession, namespace: string | undefined): Promise<ModelDeployment[]> {
  try {
    const items = (await session.objects.list({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace })) as unknown as ModelDeployment[];
    return items.sort((a, b) => `${a.metadata.namespace}/${a.metadata.name}`.localeCompare(`${b.metadata.namespace}/${b.metadata.name}`));
  } catch (err) {
    throw kubeFailure(err, `list ModelDeployments${namespace ? ` in namespace ${namespace}` : ''}`, session);
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

export function firstLine(text: string): string {
  return text.split('\n')[0]!.replace(/[.\s]+$/, '');
}
