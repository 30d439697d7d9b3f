// In-memory stand-ins for the Kubernetes clients activities use, for their unit tests (MockActivityEnvironment
// runs the activity; these answer its calls). They extend the real clients, so an activity takes them where
// it takes the real ones, and a method a test did not expect to be called reaches no API server: it fails.
// Errors are the API server's own shape (KubeHttpError with a Status body), so kube/errors.ts classifies
// them as it classifies a real refusal.
import { KubeConfig } from '@kubernetes/client-node';
import { collectionPath, CustomObjects, objectPath, type AnyObject, type CollectionRef, type ResourceRef } from '../../kube/custom-objects.ts';
import { EventRecorder, type EventRecord, type InvolvedObject } from '../../kube/events.ts';
import { KubeHttpError } from '../../kube/rest.ts';

/** A KubeConfig that names no cluster: nothing built on it can reach one. */
export const noCluster = (): KubeConfig => new KubeConfig();

/** The error the API server answers with: `code` and a Status body carrying `reason`. */
export function kubeStatusError(code: number, reason: string, message = reason): KubeHttpError {
  return new KubeHttpError(code, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, message, code });
}

/** What the API server answers for a resource type it does not serve (its CRD not installed): a plain 404, no Status. */
export function noSuchKind(): KubeHttpError {
  return new KubeHttpError(404, '404 page not found');
}

type Method = 'get' | 'list' | 'apply' | 'applyStatus' | 'mergePatch' | 'mergePatchStatus' | 'jsonPatch' | 'remove';

interface PatchOp {
  op: string;
  path: string;
  value?: unknown;
}

/** Objects by path, with the API server's bookkeeping a test relies on: uid, resourceVersion, deletion held by finalizers. */
export class FakeObjects extends CustomObjects {
  private readonly stored = new Map<string, AnyObject>();
  private readonly failures: { method: Method; plural?: string; error: unknown }[] = [];
  private version = 0;
  /** Every call, as `method plural/name` (or `list plural`), in order. */
  readonly calls: string[] = [];

  constructor() {
    super(noCluster());
  }

  /** Stores `obj` at `ref` as the API server would (a uid and a resourceVersion added); returns it. */
  put(ref: ResourceRef, obj: AnyObject): AnyObject {
    const stored = { ...obj, metadata: { ...obj.metadata, name: ref.name, ...(ref.namespace ? { namespace: ref.namespace } : {}), uid: obj.metadata?.uid ?? `uid-${ref.name}`, resourceVersion: this.nextVersion() } };
    this.stored.set(objectPath(ref), stored);
    return stored;
  }

  /** The object stored at `ref`, if any. */
  at(ref: ResourceRef): AnyObject | undefined {
    return this.stored.get(objectPath(ref));
  }

  /** The next call of `method` (on `plural`, when given) throws `error`: once per call to this. */
  failNext(method: Method, error: unknown, plural?: string): void {
    this.failures.push({ method, error, plural });
  }

  override async get(ref: ResourceRef): Promise<AnyObject | undefined> {
    this.enter('get', `${ref.plural}/${ref.name}`);
    return this.at(ref);
  }

  override async list(ref: CollectionRef & { labelSelector?: string }): Promise<AnyObject[]> {
    this.enter('list', ref.plural);
    const prefix = `${collectionPath(ref)}/`;
    // Without a namespace, a namespaced kind is listed across all of them, as the API server does.
    const base = collectionPath({ ...ref, plural: '' });
    const anyNamespace = (path: string) => !ref.namespace && path.startsWith(`${base}namespaces/`) && path.split('/').at(-2) === ref.plural;
    // Equality requirements only (`k=v,k2=v2`): what the controller's selectors use.
    const wanted = (ref.labelSelector ?? '').split(',').filter(Boolean).map((term) => term.split('='));
    const selected = (obj: AnyObject) => wanted.every(([key, value]) => obj.metadata?.labels?.[key!] === value);
    return [...this.stored].filter(([path, obj]) => (path.startsWith(prefix) || anyNamespace(path)) && selected(obj)).map(([, obj]) => obj);
  }

  override async apply(ref: ResourceRef, body: AnyObject): Promise<AnyObject> {
    this.enter('apply', `${ref.plural}/${ref.name}`);
    const current = this.at(ref);
    return this.put(ref, { ...current, ...body, metadata: { ...current?.metadata, ...body.metadata, uid: current?.metadata?.uid } });
  }

  override async applyStatus(ref: ResourceRef, body: AnyObject): Promise<AnyObject> {
    this.enter('applyStatus', `${ref.plural}/${ref.name}`);
    return this.replaceStatus(ref, appliedStatus(this.existing(ref).status, body.status));
  }

  override async mergePatch(ref: ResourceRef, body: AnyObject): Promise<AnyObject> {
    this.enter('mergePatch', `${ref.plural}/${ref.name}`);
    const patched = mergePatched(this.existing(ref), body);
    if (!isObject(patched)) throw kubeStatusError(422, 'Invalid', 'a merge patch must leave an object');
    return this.put(ref, patched);
  }

  override async mergePatchStatus(ref: ResourceRef, body: { metadata?: { resourceVersion?: string }; status?: object }): Promise<AnyObject> {
    this.enter('mergePatchStatus', `${ref.plural}/${ref.name}`);
    const current = this.existing(ref);
    if (body.metadata?.resourceVersion && body.metadata.resourceVersion !== current.metadata?.resourceVersion) throw kubeStatusError(409, 'Conflict', 'the object has been modified');
    return this.replaceStatus(ref, { ...(current.status ?? {}), ...body.status });
  }

  override async jsonPatch(ref: ResourceRef, ops: PatchOp[]): Promise<AnyObject> {
    this.enter('jsonPatch', `${ref.plural}/${ref.name}`);
    const current = this.existing(ref);
    const metadata: Record<string, unknown> = { ...current.metadata };
    for (const { op, path, value } of ops) {
      const field = path.replace('/metadata/', '');
      if (op === 'test' && JSON.stringify(metadata[field]) !== JSON.stringify(value)) throw kubeStatusError(422, 'Invalid', `test of ${path} failed`);
      if (op === 'add' || op === 'replace') metadata[field] = value;
    }
    return this.put(ref, { ...current, metadata });
  }

  override async remove(ref: ResourceRef, uid?: string): Promise<'absent' | 'gone' | 'deleting'> {
    this.enter('remove', `${ref.plural}/${ref.name}`);
    const current = this.at(ref);
    if (!current || (uid && current.metadata?.uid !== uid)) return 'absent';
    if ((current.metadata?.finalizers?.length ?? 0) > 0) {
      this.put(ref, { ...current, metadata: { ...current.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } });
      return 'deleting';
    }
    this.stored.delete(objectPath(ref));
    return 'gone';
  }

  private enter(method: Method, what: string): void {
    this.calls.push(`${method} ${what}`);
    const i = this.failures.findIndex((f) => f.method === method && (f.plural === undefined || what.split('/')[0] === f.plural));
    if (i >= 0) throw this.failures.splice(i, 1)[0]!.error;
  }

  private existing(ref: ResourceRef): AnyObject {
    const current = this.at(ref);
    if (!current) throw kubeStatusError(404, 'NotFound', `${ref.plural} "${ref.name}" not found`);
    return current;
  }

  private replaceStatus(ref: ResourceRef, status: unknown): AnyObject {
    return this.put(ref, { ...this.existing(ref), status });
  }

  private nextVersion(): string {
    this.version += 1;
    return String(this.version);
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON merge patch (RFC 7386) applied: objects merge, `null` removes a key, anything else replaces. */
function mergePatched(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = mergePatched(result[key], value);
  }
  return result;
}

/** What the API server stores: an object whose metadata, when present, is an object too. */
function isObject(v: unknown): v is AnyObject {
  return isRecord(v) && (v.metadata === undefined || isRecord(v.metadata));
}

type Status = { conditions?: { type: string }[] } & Record<string, unknown>;

/**
 * A status apply as the API server merges it, near enough for one field manager's tests: the fields it
 * sends replace theirs, others' fields stay, and conditions merge by type (their list's key).
 */
function appliedStatus(current: unknown, applied: unknown): Status {
  const have: Status = { ...(current ?? {}) };
  const sent: Status = { ...(applied ?? {}) };
  const sentTypes = new Set((sent.conditions ?? []).map((c) => c.type));
  const conditions = [...(have.conditions ?? []).filter((c) => !sentTypes.has(c.type)), ...(sent.conditions ?? [])];
  return { ...have, ...sent, ...(conditions.length > 0 ? { conditions } : {}) };
}

/** Records events in memory: the ones posted in the background and the ones written at once alike. */
export class FakeRecorder extends EventRecorder {
  readonly events: (EventRecord & { on: string })[] = [];

  constructor() {
    super(noCluster(), 'test');
  }

  override post(obj: InvolvedObject, event: EventRecord): void {
    this.events.push({ ...event, on: `${obj.kind}/${obj.name}` });
  }

  override async record(obj: InvolvedObject, event: EventRecord): Promise<void> {
    this.events.push({ ...event, on: `${obj.kind}/${obj.name}` });
  }

  reasons(): string[] {
    return this.events.map((e) => e.reason);
  }
}
