import type { KubeConfig } from '@kubernetes/client-node';
import { collectionPath, CustomObjects, type AnyObject, type CollectionRef, type ResourceRef } from './custom-objects.ts';
import { resilientInformer, type StartedInformer, type WatchedObject } from './informer.ts';
import { Outage } from './outage.ts';

export interface CollectionSpec extends CollectionRef {
  labelSelector?: string;
  fieldSelector?: string;
  /** List and watch as PartialObjectMetadata: the objects' metadata only (Secrets: their data never arrives). */
  metadataOnly?: boolean;
}

/** One watched collection: its informer (for event handlers) and its cache (for reads). */
export interface SharedCollection {
  readonly spec: CollectionSpec;
  readonly informer: StartedInformer<WatchedObject>['informer'];
  readonly synced: boolean;
  retryNow(): void;
}

/** What a cache says about one object: `unknown` when no filled cache covers it (ask the API server). */
export type CacheAnswer = { known: true; object: AnyObject | undefined } | { known: false };

const METADATA_ONLY = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const METADATA_ONLY_WATCH = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

const keyOf = (s: CollectionSpec) => JSON.stringify([collectionPath(s), s.labelSelector ?? '', s.fieldSelector ?? '', Boolean(s.metadataOnly)]);

/**
 * The process's informers, one per watched collection, like controller-runtime's shared cache: the
 * watcher's event handlers and the activities' reads use the same informer, so a read that follows an
 * event sees at least that event's object, and each collection is listed and watched once per process.
 */
export class InformerSet {
  private readonly collections = new Map<string, StartedInformer<WatchedObject> & { spec: CollectionSpec; outage: Outage }>();
  private readonly objects: CustomObjects;
  private started = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.objects = new CustomObjects(kc);
  }

  /** The shared informer of a collection, created on first use (and started at once if the set runs). */
  collection(what: string, spec: CollectionSpec): SharedCollection {
    const key = keyOf(spec);
    let entry = this.collections.get(key);
    if (!entry) {
      const query = { labelSelector: spec.labelSelector, fieldSelector: spec.fieldSelector };
      const accept = spec.metadataOnly ? METADATA_ONLY : undefined;
      // One line when the watch is lost and one when it is back; the retries between are silent.
      const outage = new Outage(`${what} watch`, this.log);
      const informer = resilientInformer<WatchedObject>(this.kc, collectionPath(spec), () => this.objects.listRaw<WatchedObject>(spec, query, accept), {
        labelSelector: spec.labelSelector,
        fieldSelector: spec.fieldSelector,
        accept: spec.metadataOnly ? METADATA_ONLY_WATCH : undefined,
        onError: (err) => outage.failed(String((err as Error)?.message ?? err)),
        onRecovered: () => outage.succeeded(),
      });
      entry = Object.assign(informer, { spec, outage });
      this.collections.set(key, entry);
      if (this.started) void entry.start();
    }
    return entry;
  }

  /**
   * The watches lost now, one line each with its cause. A watch counts as lost from its first failure
   * until its own list and watch succeed again (after its backoff): an API server that answers again
   * does not make a watch that has not retried yet whole.
   */
  lost(): string[] {
    return [...this.collections.values()].flatMap((c) => c.outage.describe() ?? []);
  }

  /** Starts every collection created so far and waits for their first lists; later ones start when created. */
  async start(): Promise<void> {
    this.started = true;
    await Promise.all([...this.collections.values()].map((c) => c.start()));
  }

  async stop(): Promise<void> {
    this.started = false;
    await Promise.all([...this.collections.values()].map((c) => c.stop()));
  }

  /**
   * The cached object, from a filled collection that covers it: the same resource type and either all
   * namespaces or the object's own, with no selector unless the caller says the object carries it.
   */
  cached(ref: ResourceRef, carries: { labelSelector?: string; metadataOnly?: boolean } = {}): CacheAnswer {
    for (const c of this.collections.values()) {
      if (!c.synced || !covers(c.spec, ref, carries.labelSelector) || (c.spec.metadataOnly && !carries.metadataOnly)) continue;
      return { known: true, object: c.informer.get(ref.name, ref.namespace) };
    }
    return { known: false };
  }

  /** Every cached object of a namespace that a filled collection with exactly this label selector holds. */
  selection(ref: CollectionRef & { namespace: string }, labelSelector: string): readonly AnyObject[] | undefined {
    for (const c of this.collections.values()) {
      if (c.synced && !c.spec.metadataOnly && !c.spec.fieldSelector && c.spec.labelSelector === labelSelector && covers(c.spec, { ...ref, name: '' }, labelSelector)) {
        return c.informer.list(ref.namespace);
      }
    }
    return undefined;
  }

  /** Every cached object of a resource type, when a filled collection without selectors holds them all. */
  cachedList(ref: CollectionRef): readonly AnyObject[] | undefined {
    for (const c of this.collections.values()) {
      if (c.synced && !c.spec.metadataOnly && !c.spec.fieldSelector && covers(c.spec, { ...ref, name: '' }, undefined) && (!c.spec.namespace || c.spec.namespace === ref.namespace)) {
        return c.informer.list(ref.namespace);
      }
    }
    return undefined;
  }
}

function covers(spec: CollectionSpec, ref: ResourceRef, carriedLabels: string | undefined): boolean {
  if (spec.group !== ref.group || spec.version !== ref.version || spec.plural !== ref.plural) return false;
  if (spec.namespace && spec.namespace !== ref.namespace) return false;
  if (spec.labelSelector && spec.labelSelector !== carriedLabels) return false;
  if (spec.fieldSelector && spec.fieldSelector !== `metadata.name=${ref.name}`) return false;
  return true;
}
