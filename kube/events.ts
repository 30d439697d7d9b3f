import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { classifyKubeError } from './errors.ts';
import { BoundedMap } from './bounded-map.ts';
import { KubeRest } from './rest.ts';

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

export interface EventRecord {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** A core/v1 Event as the API server returns it (only the fields this recorder touches are typed). */
interface StoredEvent {
  metadata: { name: string; namespace: string; resourceVersion?: string; [field: string]: unknown };
  count?: number;
  lastTimestamp?: string;
  [field: string]: unknown;
}

const MAX_REMEMBERED = 4096;
/** Events waiting to be written in the background; beyond this (an API server down for long) new ones are dropped, as client-go's recorder drops them. */
const MAX_QUEUED = 1000;

/**
 * Records Kubernetes events the way kubectl shows them. Repeats of the same event (same object, reason
 * and message) are aggregated into one Event with a higher count, as the Go event recorder does, so
 * an activity retried or a condition re-observed does not flood `kubectl describe`.
 */
export class EventRecorder {
  private readonly rest: KubeRest;
  /** The Events this recorder last wrote, by name: a repeat is one update, not a failed create and a read. */
  private readonly written = new BoundedMap<string, StoredEvent>(MAX_REMEMBERED);
  /** Background writes by event name, so repeats of one event are counted one after another. */
  private readonly queued = new Map<string, Promise<void>>();

  constructor(
    kc: KubeConfig,
    private readonly component: string,
    private readonly onDropped: (event: EventRecord, why: string) => void = (event, why) => process.stderr.write(`event ${event.reason} not recorded: ${why}\n`),
  ) {
    this.rest = new KubeRest(kc);
  }

  /**
   * Records in the background, as client-go's recorder does: for events that only inform (a provider
   * was selected, a resource created), so the reconcile that causes them does not wait for their write.
   * A failure is reported to `onDropped`, never to the caller.
   */
  post(obj: InvolvedObject, event: EventRecord): void {
    const name = eventName(obj, event);
    if (this.queued.size >= MAX_QUEUED && !this.queued.has(name)) return this.onDropped(event, `${MAX_QUEUED} events already waiting`);
    const previous = this.queued.get(name) ?? Promise.resolve();
    const next = previous.then(() => this.record(obj, event)).catch((err: Error) => this.onDropped(event, err.message));
    this.queued.set(name, next);
    void next.then(() => {
      if (this.queued.get(name) === next) this.queued.delete(name);
    });
  }

  /** Records now: for events a caller must know are written before it goes on (e.g. before removing a finalizer). */
  async record(obj: InvolvedObject, event: EventRecord): Promise<void> {
    const name = eventName(obj, event);
    const now = new Date().toISOString();
    const known = this.written.get(name);
    if (known) {
      try {
        return this.remember(await this.bump(known, now));
      } catch (err) {
        // Changed or deleted by someone else (or expired): start over from the API server's copy.
        if (!['Conflict', 'NotFound'].includes(classifyKubeError(err).type)) throw err;
        this.written.delete(name);
      }
    }
    const body = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace: obj.namespace },
      involvedObject: { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.namespace, name: obj.name, uid: obj.uid },
      type: event.type,
      reason: event.reason,
      message: event.message,
      source: { component: this.component },
      reportingComponent: this.component,
      reportingInstance: this.component,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    };
    try {
      this.remember(await this.rest.request<StoredEvent>('POST', eventsPath(obj.namespace), { body }));
    } catch (err) {
      if (classifyKubeError(err).type !== 'AlreadyExists') throw err;
      const existing = await this.rest.request<StoredEvent>('GET', eventsPath(obj.namespace, name));
      this.remember(await this.bump(existing, now));
    }
  }

  private bump(existing: StoredEvent, now: string): Promise<StoredEvent> {
    const { name, namespace } = existing.metadata;
    return this.rest.request<StoredEvent>('PUT', eventsPath(namespace, name), { body: { ...existing, count: (existing.count ?? 1) + 1, lastTimestamp: now } });
  }

  private remember(event: StoredEvent): void {
    this.written.set(event.metadata.name, event);
  }
}

/** One name per (object, type, reason, message): a repeat finds the Event it aggregates into. */
function eventName(obj: InvolvedObject, event: EventRecord): string {
  const digest = createHash('sha256').update(`${obj.uid}\n${event.type}\n${event.reason}\n${event.message}`).digest('hex').slice(0, 16);
  return `${obj.name}.${digest}`;
}

function eventsPath(namespace: string, name?: string): string {
  const base = `/api/v1/namespaces/${encodeURIComponent(namespace)}/events`;
  return name === undefined ? base : `${base}/${encodeURIComponent(name)}`;
}
