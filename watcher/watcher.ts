import type { Client } from '@temporalio/client';
import { FINALIZER, GROUP, MODEL_DEPLOYMENT_PLURAL, PROVIDER_CONFIG_PLURAL, VERSION } from '../api/constants.ts';
import type { ModelDeployment } from '../api/types.ts';
import type { AnyObject, CollectionRef } from '../kube/custom-objects.ts';
import type { InformerSet } from '../kube/informer-set.ts';
import type { DeploymentRef } from '../workflows/ids.ts';
import type { ReconcileSettings } from '../workflows/settings.ts';
import { Coalescer } from './coalescer.ts';
import { deploymentFingerprint, providerConfigFingerprint } from './fingerprint.ts';
import { createSignaler, type Delivery } from './signaler.ts';

export interface WatcherOptions {
  /** The process's shared informers: the watcher adds its handlers; the caller starts and stops the set. */
  informers: InformerSet;
  client: Client;
  /** Settings handed to workflows this watcher starts; the task-queue prefix also picks the core queue. */
  settings: Partial<ReconcileSettings> & Pick<ReconcileSettings, 'taskQueuePrefix'>;
  /** Namespaces to watch; all when omitted. */
  namespaces?: readonly string[];
  /** A core worker runs in this process on the client's connection: new workflows can start eagerly. */
  eagerStart?: boolean;
  log?: (line: string) => void;
}

export interface Watcher {
  stop(): Promise<void>;
}

const MD: Omit<CollectionRef, 'namespace'> = { group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL };

/**
 * Turns watch events into "look again" signals: ModelDeployment changes start or wake their workflow;
 * InferenceProviderConfig changes wake deployments still waiting for a provider; CRD changes wake
 * deployments waiting for one. Every signal goes through one coalescer. Register before the informer
 * set starts, so the first lists reach the handlers.
 */
export function startWatcher(opts: WatcherOptions): Watcher {
  const log = opts.log ?? (() => {});
  const deliver = createSignaler(opts.client, opts.settings, { eagerStart: opts.eagerStart });
  const coalescer = new Coalescer<Delivery>((_key, delivery) => deliver(delivery), {
    onError: (key, err, delay) => log(`signal to ${key} failed (${(err as Error).message}); retrying in ${delay}ms`),
  });
  const seen = new Map<string, string>();
  const deployments = new Map<string, ModelDeployment>();
  const refOf = (md: AnyObject): DeploymentRef => ({ namespace: md.metadata!.namespace!, name: md.metadata!.name!, uid: md.metadata!.uid! });
  const send = (ref: DeploymentRef, reason: string, start: boolean, md?: AnyObject) =>
    coalescer.trigger(ref.uid, {
      ref,
      request: { reason, ...(md ? { generation: md.metadata?.generation, resourceVersion: md.metadata?.resourceVersion } : {}) },
      start,
      fresh: md !== undefined && !md.metadata?.deletionTimestamp && !md.metadata?.finalizers?.includes(FINALIZER),
    });

  const watch = (what: string, ref: CollectionRef, handlers: { upsert?: (o: AnyObject) => void; remove?: (o: AnyObject) => void }) => {
    const { informer } = opts.informers.collection(what, ref);
    if (handlers.upsert) {
      informer.on('add', (o) => handlers.upsert!(o as unknown as AnyObject));
      informer.on('update', (o) => handlers.upsert!(o as unknown as AnyObject));
    }
    if (handlers.remove) informer.on('delete', (o) => handlers.remove!(o as unknown as AnyObject));
  };

  for (const namespace of opts.namespaces ?? [undefined]) {
    watch('ModelDeployment', { ...MD, namespace }, {
      upsert: (md) => {
        const uid = md.metadata?.uid;
        if (!uid) return;
        deployments.set(uid, md as unknown as ModelDeployment);
        const fingerprint = deploymentFingerprint(md);
        if (seen.get(uid) === fingerprint) return;
        seen.set(uid, fingerprint);
        send(refOf(md), md.metadata?.deletionTimestamp ? 'deleting' : 'changed', true, md);
      },
      remove: (md) => {
        const uid = md.metadata?.uid ?? '';
        seen.delete(uid);
        deployments.delete(uid);
      },
    });
  }

  const wakeWhere = (reason: string, match: (md: ModelDeployment) => boolean) => {
    for (const md of deployments.values()) if (match(md)) send(refOf(md as unknown as AnyObject), reason, false);
  };
  const configs = new Map<string, string>();
  watch('InferenceProviderConfig', { group: GROUP, version: VERSION, plural: PROVIDER_CONFIG_PLURAL }, {
    upsert: (config) => {
      const name = config.metadata?.name ?? '';
      const fingerprint = providerConfigFingerprint(config);
      if (configs.get(name) === fingerprint) return;
      configs.set(name, fingerprint);
      wakeWhere(`provider config ${name} changed`, (md) => !md.status?.provider?.name || md.status.provider.name === name);
    },
    remove: (config) => configs.delete(config.metadata?.name ?? ''),
  });
  watch('CustomResourceDefinition', { group: 'apiextensions.k8s.io', version: 'v1', plural: 'customresourcedefinitions' }, {
    upsert: (crd) => wakeWhere(`CRD ${crd.metadata?.name} changed`, (md) => md.status?.phase === 'Pending' || md.status?.phase === undefined),
  });

  log(`watching ModelDeployments in ${opts.namespaces?.join(', ') ?? 'all namespaces'}`);

  return {
    async stop() {
      coalescer.stop();
    },
  };
}
