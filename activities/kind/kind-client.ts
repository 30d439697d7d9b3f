// One typed client per kind for its activities: read this incarnation (the shared cache first), write
// its status, keep its finalizer, post its events and report a spec it refuses. Every kind's activities
// used to hand-roll these (each with its own casts); the one cast from the untyped object the API
// server returns to the kind's type is here, after the uid check that says it is this object.
import type { KubeConfig } from '@kubernetes/client-node';
import type { Condition } from '../../api/types.ts';
import type { ObjectRef, ReadRef } from '../../contract/object-ref.ts';
import { CustomObjects, type AnyObject, type ResourceRef } from '../../kube/custom-objects.ts';
import { kubeCall } from '../../kube/errors.ts';
import { activityFailure } from '../../contract/failure-types.ts';
import { EventRecorder, type EventRecord, type InvolvedObject } from '../../kube/events.ts';
import { setFinalizer } from '../../kube/finalizers.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { readLive } from '../../kube/read-live.ts';
import { kubeNow } from '../../kube/time.ts';
import type { DesiredCondition } from '../status/conditions.ts';
import { apiVersionOf, conditionedStatus, statusDocument, statusUnchanged, type KindIdentity, type StatusComparison } from './status-write.ts';

/** What the client needs of a kind's type: its metadata and, when it has conditions, their shape. */
export interface KindObject {
  metadata: { name?: string; generation?: number; resourceVersion?: string; finalizers?: string[]; deletionTimestamp?: string };
  status?: object & { conditions?: readonly Condition[] };
}

export interface KindClientOptions {
  kc: KubeConfig;
  /** The process's shared informers: reads answer from their cache when it holds this incarnation new enough. */
  informers?: InformerSet;
  /** The field manager of the status (and the events' reporting component). */
  fieldManager: string;
  /** The object API calls go through, when the caller shares one; else a new one on `kc`. */
  objects?: CustomObjects;
  /** The events' writer, when the caller shares one; else one made on `kc` at the first event. */
  recorder?: EventRecorder;
}

export class KindClient<T extends KindObject> {
  readonly objects: CustomObjects;
  private readonly informers: InformerSet | undefined;
  private readonly fieldManager: string;
  private readonly kc: KubeConfig;
  private events: EventRecorder | undefined;

  constructor(
    readonly kind: KindIdentity,
    options: KindClientOptions,
  ) {
    this.objects = options.objects ?? new CustomObjects(options.kc);
    this.kc = options.kc;
    this.informers = options.informers;
    this.fieldManager = options.fieldManager;
    this.events = options.recorder;
  }

  /** Made on first use: a client that only reads (a second kind a step looks at) posts no events. */
  get recorder(): EventRecorder {
    this.events ??= new EventRecorder(this.kc, this.fieldManager);
    return this.events;
  }

  resource(ref: Pick<ObjectRef, 'namespace' | 'name'>): ResourceRef {
    const { group, version, plural } = this.kind;
    return { group, version, plural, namespace: ref.namespace, name: ref.name };
  }

  involved(ref: ObjectRef): InvolvedObject {
    return { apiVersion: apiVersionOf(this.kind), kind: this.kind.kind, namespace: ref.namespace, name: ref.name, uid: ref.uid };
  }

  /** This incarnation as stored, or undefined when it is gone; `fresh` skips the cache (a guard failed on it). */
  async read(ref: ReadRef, fresh = false): Promise<T | undefined> {
    return this.typed(await kubeCall(`read ${this.kind.kind}`, () => this.readRaw(ref, fresh)));
  }

  /** This incarnation, failing (KubeNotFound, not retried) when it is gone: a step that needs the object cannot proceed. */
  async require(ref: ReadRef): Promise<T> {
    const obj = await this.read(ref);
    // No API server detail: nothing refused a request, the object is simply not there any more.
    if (!obj) throw activityFailure('KubeNotFound', `${this.kind.kind} ${ref.namespace}/${ref.name} is gone`);
    return obj;
  }

  /** An object of this kind by name, any incarnation: from the cache when it knows the name, else the API server. */
  async byName(namespace: string, name: string): Promise<T | undefined> {
    const resource = this.resource({ namespace, name });
    const cached = this.informers?.cached(resource);
    return this.typed(cached?.known ? cached.object : await kubeCall(`read ${this.kind.kind}`, () => this.objects.get(resource)));
  }

  /** An object of this kind from the API server, any incarnation (`resource` names it). */
  async get(resource: ResourceRef): Promise<T | undefined> {
    return this.typed(await kubeCall(`read ${this.kind.kind}`, () => this.objects.get(resource)));
  }

  /** Every object of this kind: from the cache when a filled collection holds them all, else the API server. */
  async list(): Promise<T[]> {
    const { group, version, plural } = this.kind;
    const all = this.informers?.cachedList({ group, version, plural }) ?? (await kubeCall(`list ${this.kind.kind}s`, () => this.objects.list({ group, version, plural })));
    return all.map((obj) => this.typed(obj)!);
  }

  /** Server-side apply of a whole object of this kind (as this client's field manager); the stored object. */
  async apply(resource: ResourceRef, body: AnyObject): Promise<T> {
    return this.typed(await kubeCall(`apply ${this.kind.kind} ${resource.name}`, () => this.objects.apply(resource, body, this.fieldManager)))!;
  }

  /**
   * Writes `status` by server-side apply as this kind's field manager, unless the live object already
   * says it (see StatusComparison). Returns whether it wrote.
   */
  async applyStatus(ref: ObjectRef, live: T, status: object, comparison: StatusComparison = 'fields'): Promise<boolean> {
    if (statusUnchanged(live.status, status, comparison)) return false;
    await kubeCall(`write ${this.kind.kind} status`, () => this.objects.applyStatus(this.resource(ref), statusDocument(this.kind, ref, status), this.fieldManager));
    return true;
  }

  /** Server-side apply of a status document as written (no comparison with the live object); the object as stored. */
  async writeStatus(ref: Pick<ObjectRef, 'namespace' | 'name'>, document: AnyObject): Promise<T> {
    return this.typed(await kubeCall('write status', () => this.objects.applyStatus(this.resource(ref), document, this.fieldManager)))!;
  }

  /** `fields` plus `conditions` (transition times kept) and observedGeneration, written when changed. */
  async writeConditions(ref: ObjectRef, live: T, fields: object, conditions: readonly DesiredCondition[]): Promise<boolean> {
    return this.applyStatus(ref, live, conditionedStatus(live, fields, conditions, kubeNow()));
  }

  /** Adds or removes `finalizer`, guarded against a concurrent change of the list (kube/finalizers.ts). */
  async setFinalizer(ref: ReadRef, finalizer: string, present: boolean): Promise<void> {
    await kubeCall(present ? 'add finalizer' : 'remove finalizer', () => setFinalizer(this.objects, this.resource(ref), (fresh) => this.readRaw(ref, fresh), finalizer, present));
  }

  /** An event that only informs, written in the background. */
  post(ref: ObjectRef, event: EventRecord): void {
    this.recorder.post(this.involved(ref), event);
  }

  /** An event the workflow asked for: its activity fails if the write fails (and is retried). */
  async record(ref: ObjectRef, event: EventRecord): Promise<void> {
    await this.recorder.record(this.involved(ref), event);
  }

  /** A spec the controller refuses: a Warning event `InvalidSpec` (the status says it too, by the workflow). */
  refuse(ref: ObjectRef, message: string): void {
    this.post(ref, { type: 'Warning', reason: 'InvalidSpec', message });
  }

  /** The failure of a step that needs a valid object and found it invalid (the assessment stops a pass before). */
  invalid(ref: ObjectRef, message: string): Error {
    return activityFailure('InvalidSpec', `${this.kind.kind} ${ref.namespace}/${ref.name} is invalid: ${message}`);
  }

  private readRaw(ref: ReadRef, fresh: boolean): Promise<AnyObject | undefined> {
    return readLive(this.objects, fresh ? undefined : this.informers, this.resource(ref), ref);
  }

  /** The stored object as the kind's type: its schema is the CRD's, which the API server enforced; validation checks the rest. */
  private typed(obj: AnyObject | undefined): T | undefined {
    return obj as unknown as T | undefined;
  }
}

/** The shared parts a caller (a test) hands in instead of the ones built on `kc`. */
export type KindClientParts = Pick<KindClientOptions, 'objects' | 'recorder'>;

/** A kind's client as `fieldManager`, on the process's connection and informers, or on the parts a caller shares. */
export function kindClient<T extends KindObject>(kind: KindIdentity, fieldManager: string, deps: Pick<KindClientOptions, 'kc' | 'informers'>, parts: KindClientParts = {}): KindClient<T> {
  return new KindClient<T>(kind, { kc: deps.kc, informers: deps.informers, fieldManager, ...parts });
}
