// What the bench's watches saw of each deployment in one namespace, with the time each milestone was
// first seen: the ModelDeployment, its ResourceCreated condition, phase Running, its provider resource
// (DynamoGraphDeployment), and both being gone. The same milestones for either controller's API group.
import type { AnyObject } from '../../kube/custom-objects.ts';
import type { WatchEventType } from './object-watch.ts';

export interface Milestones {
  uid?: string;
  seenAt?: number;
  resourceCreatedAt?: number;
  runningAt?: number;
  mdGoneAt?: number;
  dgdSeenAt?: number;
  dgdGoneAt?: number;
}

interface Condition {
  type?: string;
  status?: string;
}

export class DeploymentTracker {
  readonly byName = new Map<string, Milestones>();
  private readonly waiters = new Set<() => void>();

  private entry(name: string): Milestones {
    let m = this.byName.get(name);
    if (!m) this.byName.set(name, (m = {}));
    return m;
  }

  onModelDeployment(type: WatchEventType, obj: AnyObject, at: number): void {
    const m = this.entry(obj.metadata!.name!);
    m.uid ??= obj.metadata?.uid;
    m.seenAt ??= at;
    if (type === 'DELETED') m.mdGoneAt ??= at;
    const status = obj.status as { phase?: string; conditions?: Condition[] } | undefined;
    if (status?.conditions?.some((c) => c.type === 'ResourceCreated' && c.status === 'True')) m.resourceCreatedAt ??= at;
    if (status?.phase === 'Running') m.runningAt ??= at;
    this.wake();
  }

  /** The provider resource is named after its ModelDeployment by both controllers. */
  onProviderResource(type: WatchEventType, obj: AnyObject, at: number): void {
    const m = this.entry(obj.metadata!.name!);
    if (type === 'DELETED') m.dgdGoneAt ??= at;
    else m.dgdSeenAt ??= at;
    this.wake();
  }

  /** Resolves when `done` holds for the tracked state; checked after every event, never by polling the API. */
  until(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  /** The latest time of one milestone over these names, or undefined while any is missing. */
  lastOf(names: readonly string[], milestone: keyof Omit<Milestones, 'uid'>): number | undefined {
    let last = 0;
    for (const name of names) {
      const t = this.byName.get(name)?.[milestone];
      if (t === undefined) return undefined;
      last = Math.max(last, t);
    }
    return last;
  }

  count(names: readonly string[], milestone: keyof Omit<Milestones, 'uid'>): number {
    return names.filter((n) => this.byName.get(n)?.[milestone] !== undefined).length;
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }
}
