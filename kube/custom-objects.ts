import type { KubeConfig } from '@kubernetes/client-node';
import { classifyKubeError } from './errors.ts';
import { KubeRest } from './rest.ts';

/** Where an object lives: enough to address it without API discovery. Group '' is the core group; no namespace: cluster-scoped. */
export interface ResourceRef {
  group: string;
  version: string;
  plural: string;
  namespace?: string;
  name: string;
}

export type CollectionRef = Omit<ResourceRef, 'name'>;

/** A reference to an object's owner. The API server stores a uid in each; an offline render has none to give. */
export type OwnerReference = {
  apiVersion: string;
  kind: string;
  name: string;
  uid?: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
};

/** A type, not an interface: readers that take any object's metadata as a record accept it. */
export type ObjectMetadata = {
  name?: string;
  /** A prefix the API server completes into a unique name on create. */
  generateName?: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  resourceVersion?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
};

export interface AnyObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMetadata;
  [field: string]: unknown;
}

const APPLY = 'application/apply-patch+yaml';
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';

export function collectionPath(ref: CollectionRef): string {
  const base = ref.group === '' ? `/api/${ref.version}` : `/apis/${ref.group}/${ref.version}`;
  return ref.namespace ? `${base}/namespaces/${encodeURIComponent(ref.namespace)}/${ref.plural}` : `${base}/${ref.plural}`;
}

export function objectPath(ref: ResourceRef): string {
  return `${collectionPath(ref)}/${encodeURIComponent(ref.name)}`;
}

/** `group/version` (or `v1`) split into its parts. */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/**
 * Object access by explicit group/version/plural, for core and custom kinds alike. Every write that
 * sets fields is a server-side apply with a named field manager: custom resources reject strategic
 * merge patch, and SSA records who owns which field (the seed's status-ownership table depends on it).
 */
export class CustomObjects {
  private readonly rest: KubeRest;

  constructor(kc: KubeConfig) {
    this.rest = new KubeRest(kc);
  }

  /** The live object, or undefined when it does not exist. A missing resource type (CRD) throws NoKindMatch. */
  async get(ref: ResourceRef): Promise<AnyObject | undefined> {
    try {
      return await this.rest.request<AnyObject>('GET', objectPath(ref));
    } catch (err) {
      if (classifyKubeError(err).type === 'NotFound') return undefined;
      throw err;
    }
  }

  /** `limit` bounds the answer to its first page (the rest is not fetched). */
  async list(ref: CollectionRef & { labelSelector?: string; limit?: number }): Promise<AnyObject[]> {
    const query = { labelSelector: ref.labelSelector, ...(ref.limit !== undefined ? { limit: String(ref.limit) } : {}) };
    const res = await this.rest.request<{ items?: AnyObject[] }>('GET', collectionPath(ref), { query });
    return res.items ?? [];
  }

  /** The list body as an informer's list function wants it (with the list's resourceVersion). */
  async listRaw<T extends AnyObject = AnyObject>(
    ref: CollectionRef & { labelSelector?: string },
    query: { labelSelector?: string; fieldSelector?: string } = { labelSelector: ref.labelSelector },
    accept?: string,
  ): Promise<{ metadata?: { resourceVersion?: string }; items: T[] }> {
    return this.rest.request('GET', collectionPath(ref), { query, accept });
  }

  async apply(ref: ResourceRef, body: AnyObject, fieldManager: string): Promise<AnyObject> {
    return this.rest.request('PATCH', objectPath(ref), { body, contentType: APPLY, query: { fieldManager, force: 'true' } });
  }

  async applyStatus(ref: ResourceRef, body: AnyObject, fieldManager: string): Promise<AnyObject> {
    return this.rest.request('PATCH', `${objectPath(ref)}/status`, { body, contentType: APPLY, query: { fieldManager, force: 'true' } });
  }

  async mergePatch(ref: ResourceRef, body: object): Promise<AnyObject> {
    return this.rest.request('PATCH', objectPath(ref), { body, contentType: MERGE });
  }

  async mergePatchStatus(ref: ResourceRef, body: object): Promise<AnyObject> {
    return this.rest.request('PATCH', `${objectPath(ref)}/status`, { body, contentType: MERGE });
  }

  async jsonPatch(ref: ResourceRef, ops: object[]): Promise<AnyObject> {
    return this.rest.request('PATCH', objectPath(ref), { body: ops, contentType: JSON_PATCH });
  }

  /** Deletes in the background; true when the object was there to delete. */
  async delete(ref: ResourceRef): Promise<boolean> {
    return (await this.remove(ref)) !== 'absent';
  }

  /**
   * Deletes in the background and says what became of the object: `gone` when nothing held it (the API
   * server removed it at once), `deleting` when finalizers or a grace period (a pod on a node) keep it
   * for now, `absent` when it was not there. With `uid`, only that incarnation is deleted: a newer
   * object of the same name counts as `absent` (the one meant is gone).
   */
  async remove(ref: ResourceRef, uid?: string): Promise<'absent' | 'gone' | 'deleting'> {
    const body = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background', ...(uid ? { preconditions: { uid } } : {}) };
    try {
      const last = await this.rest.request<AnyObject>('DELETE', objectPath(ref), { body });
      if (last?.kind === 'Status') return 'gone';
      const grace = (last?.metadata as { deletionGracePeriodSeconds?: number } | undefined)?.deletionGracePeriodSeconds ?? 0;
      return (last?.metadata?.finalizers?.length ?? 0) > 0 || grace > 0 ? 'deleting' : 'gone';
    } catch (err) {
      const type = classifyKubeError(err).type;
      if (type === 'NotFound' || (uid && type === 'Conflict')) return 'absent';
      throw err;
    }
  }
}
