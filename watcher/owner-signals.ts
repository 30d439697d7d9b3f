import type { AnyObject } from '../kube/custom-objects.ts';
import { BoundedMap } from '../kube/bounded-map.ts';
import { Coalescer } from './coalescer.ts';
import { childFingerprint } from './fingerprint.ts';
import type { Deliver, Delivery } from './signaler.ts';
import type { WorkflowKind } from './watched-kind.ts';

/**
 * Child changes → a "look again" for their owner's workflow (signal only, never start): the owner is
 * the controller ownerReference of the owning kind. An event that shows nothing new of the child wakes
 * nobody, nor does the echo of a write the owner's own workflow made (`wrote`).
 */
export class OwnerSignals {
  private readonly coalescer: Coalescer<Delivery>;
  /** What each child last looked like, by kind, namespace and name (known before a create gives it a uid). */
  private readonly seen = new Map<string, string>();
  /** Children our own workflows are deleting and see gone, by kind, namespace, name and uid, until their deletion's echo. */
  private readonly removedByUs = new BoundedMap<string, true>(10_000);

  constructor(
    deliver: Deliver,
    private readonly owner: WorkflowKind,
    log: (line: string) => void = () => {},
  ) {
    this.coalescer = new Coalescer<Delivery>((_key, d) => deliver(d), { onError: (key, err) => log(`signal to ${key} failed: ${(err as Error).message}`) });
  }

  /**
   * A child of resource type `type` (its kind or plural: listed objects carry no kind) was added,
   * changed or deleted (`reason` ends with "deleted" for deletions). Its owner is the controller
   * ownerReference unless the caller found it otherwise (a workload bound by label, not owned).
   */
  changed(type: string, obj: AnyObject, reason: string, owner = this.controllerOf(obj)): void {
    if (!owner || !obj.metadata?.namespace) return;
    const key = seenKey(type, obj);
    if (reason.endsWith('deleted')) {
      this.seen.delete(key);
      if (this.removedByUs.delete(`${key}/${obj.metadata.uid}`)) return;
    } else {
      const fingerprint = childFingerprint(obj);
      if (this.seen.get(key) === fingerprint) return;
      this.seen.set(key, fingerprint);
    }
    const ref = { namespace: obj.metadata.namespace, name: owner.name, uid: owner.uid };
    this.coalescer.trigger(owner.uid, { kind: this.owner, ref, request: { reason, fromResource: true }, start: false });
  }

  /** The owner named by the child's controller ownerReference (of the owning kind). */
  controllerOf(obj: AnyObject): { name: string; uid: string } | undefined {
    const owner = obj.metadata?.ownerReferences?.find((o) => o.kind === this.owner.kind && o.controller);
    // The API server keeps a uid in every reference it stores; without one no workflow can be named.
    return owner?.uid ? { name: owner.name, uid: owner.uid } : undefined;
  }

  /** Our own write, as stored: its watch echo is not news (the workflow that made it knows). */
  wrote(type: string, stored: AnyObject): void {
    this.seen.set(seenKey(type, stored), childFingerprint(stored));
  }

  /**
   * A child our own workflow is deleting and will see gone: the echo of that deletion is not news
   * either. Told before the delete, so the echo cannot outrun it; the function returned takes it back.
   */
  expectRemoval(type: string, obj: AnyObject): () => void {
    const key = `${seenKey(type, obj)}/${obj.metadata?.uid}`;
    this.removedByUs.set(key, true);
    return () => void this.removedByUs.delete(key);
  }

  stop(): void {
    this.coalescer.stop();
  }
}

const seenKey = (type: string, obj: AnyObject) => `${type}/${obj.metadata?.namespace}/${obj.metadata?.name}`;
