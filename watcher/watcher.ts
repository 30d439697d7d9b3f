import type { Client } from '@temporalio/client';
import type { AnyObject } from '../kube/custom-objects.ts';
import type { CollectionSpec, InformerSet } from '../kube/informer-set.ts';
import type { ObjectRef } from '../contract/object-ref.ts';
import type { ReconcileSettings } from '../workflows/settings.ts';
import { Coalescer } from './coalescer.ts';
import { OwnerSignals } from './owner-signals.ts';
import { createSignaler, type Delivery } from './signaler.ts';
import type { RelatedWatches, WatchedKind } from './watched-kind.ts';

export interface WatcherOptions {
  /** The process's shared informers: the watcher adds its handlers; the caller starts and stops the set. */
  informers: InformerSet;
  client: Client;
  /** The kinds to reconcile. */
  kinds: readonly WatchedKind[];
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

type Handlers = { upsert?: (o: AnyObject) => void; remove?: (o: AnyObject) => void };

/**
 * Turns watch events into "look again" signals, for every registered kind: an object's changes start
 * or wake its workflow; its children's changes wake it; its kind's related watches wake the objects
 * they concern. Every signal goes through one coalescer. Register before the informer set starts, so
 * the first lists reach the handlers.
 */
export function startWatcher(opts: WatcherOptions): Watcher {
  const log = opts.log ?? (() => {});
  const deliver = createSignaler(opts.client, opts.settings, { eagerStart: opts.eagerStart });
  const coalescer = new Coalescer<Delivery>((_key, delivery) => deliver(delivery), {
    onError: (key, err, delay) => log(`signal to ${key} failed (${(err as Error).message}); retrying in ${delay}ms`),
  });
  const namespaces = opts.namespaces ?? [undefined];
  const watch = (what: string, collection: CollectionSpec, handlers: Handlers) => {
    const { informer } = opts.informers.collection(what, collection);
    if (handlers.upsert) {
      informer.on('add', (o) => handlers.upsert!(o));
      informer.on('update', (o) => handlers.upsert!(o));
    }
    if (handlers.remove) informer.on('delete', (o) => handlers.remove!(o));
  };
  const stops: (() => void)[] = [() => coalescer.stop()];

  for (const kind of opts.kinds) {
    const seen = new Map<string, string>();
    const objects = new Map<string, AnyObject>();
    /** uid by namespace/name, for children that name their owner by label. */
    const uidByName = new Map<string, string>();
    const nameKey = (namespace: string | undefined, name: string | undefined) => `${namespace}/${name}`;
    const refOf = (o: AnyObject): ObjectRef => ({ namespace: o.metadata!.namespace!, name: o.metadata!.name!, uid: o.metadata!.uid! });
    /** Objects whose workflow was signalled `deleting` (a finalizer held them): their removal needs no signal. */
    const deletionAnnounced = new Set<string>();
    const send = (o: AnyObject, reason: string, start: boolean) =>
      coalescer.trigger(o.metadata!.uid!, {
        kind,
        ref: refOf(o),
        request: { reason, ...(start ? { generation: o.metadata?.generation, resourceVersion: o.metadata?.resourceVersion } : {}) },
        start,
        fresh: start && !o.metadata?.deletionTimestamp && kind.isNew(o),
      });

    for (const namespace of namespaces) {
      watch(kind.kind, { ...kind.collection, namespace }, {
        upsert: (o) => {
          const uid = o.metadata?.uid;
          if (!uid) return;
          objects.set(uid, o);
          uidByName.set(nameKey(o.metadata?.namespace, o.metadata?.name), uid);
          const fingerprint = kind.fingerprint(o);
          if (seen.get(uid) === fingerprint) return;
          seen.set(uid, fingerprint);
          if (o.metadata?.deletionTimestamp) deletionAnnounced.add(uid);
          send(o, o.metadata?.deletionTimestamp ? 'deleting' : 'changed', true);
        },
        remove: (o) => {
          const uid = o.metadata?.uid ?? '';
          const announced = deletionAnnounced.delete(uid);
          seen.delete(uid);
          objects.delete(uid);
          if (uidByName.get(nameKey(o.metadata?.namespace, o.metadata?.name)) === uid) uidByName.delete(nameKey(o.metadata?.namespace, o.metadata?.name));
          // Gone: its workflow's next pass finds no object and ends. Without this a kind without a
          // finalizer (a KybernateRestore) kept its workflow waiting until its timer, minutes later. A
          // workflow that has already ended is not started again (signal only). One already told of the
          // deletion (a finalizer held the object) is finishing its cleanup: a signal now only lands in
          // the task that completes it.
          if (!announced && o.metadata?.uid && o.metadata.name && o.metadata.namespace) send(o, 'deleted', false);
        },
      });
      if (kind.children?.length) {
        const owners = new OwnerSignals(deliver, kind, log);
        stops.push(() => owners.stop());
        for (const { ownerLabel, ...child } of kind.children) {
          const what = `${kind.kind} ${child.plural}`;
          const ownerOf = (o: AnyObject) => {
            if (!ownerLabel) return owners.controllerOf(o);
            const name = o.metadata?.labels?.[ownerLabel];
            const uid = uidByName.get(nameKey(o.metadata?.namespace, name));
            return name && uid ? { name, uid } : undefined;
          };
          watch(what, { ...child, namespace }, {
            upsert: (o) => owners.changed(child.plural, o, `${child.plural} changed`, ownerOf(o)),
            remove: (o) => owners.changed(child.plural, o, `${child.plural} deleted`, ownerOf(o)),
          });
        }
      }
    }

    const related: RelatedWatches = {
      namespaces,
      watch,
      wakeWhere: (reason, match) => {
        for (const o of objects.values()) if (match(o)) send(o, reason, false);
      },
    };
    kind.related?.(related);
    log(`watching ${kind.kind}s in ${opts.namespaces?.join(', ') ?? 'all namespaces'}`);
  }

  return {
    async stop() {
      for (const stop of stops) stop();
    },
  };
}
