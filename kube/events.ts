import { createHash } from 'node:crypto';
import { CoreV1Api, type KubeConfig, type CoreV1Event } from '@kubernetes/client-node';
import { classifyKubeError } from './errors.ts';

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

const MAX_REMEMBERED = 4096;

/**
 * Records Kubernetes events the way kubectl shows them. Repeats of the same event (same object, reason
 * and message) are aggregated into one Event with a higher count, as the Go event recorder does, so
 * an activity retried or a condition re-observed does not flood `kubectl describe`.
 */
export class EventRecorder {
  private readonly core: CoreV1Api;
  /** The Events this recorder last wrote, by name: a repeat is one update, not a failed create and a read. */
  private readonly written = new Map<string, CoreV1Event>();

  constructor(
    kc: KubeConfig,
    private readonly component: string,
  ) {
    this.core = kc.makeApiClient(CoreV1Api);
  }

  async record(obj: InvolvedObject, event: EventRecord): Promise<void> {
    const digest = createHash('sha256').update(`${obj.uid}\n${event.type}\n${event.reason}\n${event.message}`).digest('hex').slice(0, 16);
    const name = `${obj.name}.${digest}`;
    const now = new Date();
    const body: CoreV1Event = {
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
    const known = this.written.get(name);
    if (known) {
      try {
        return this.remember(name, await this.bump(known, now));
      } catch (err) {
        // Changed or deleted by someone else (or expired): start over from the API server's copy.
        if (!['Conflict', 'NotFound'].includes(classifyKubeError(err).type)) throw err;
        this.written.delete(name);
      }
    }
    try {
      this.remember(name, await this.core.createNamespacedEvent({ namespace: obj.namespace, body }));
    } catch (err) {
      if (classifyKubeError(err).type !== 'AlreadyExists') throw err;
      const existing = await this.core.readNamespacedEvent({ name, namespace: obj.namespace });
      this.remember(name, await this.bump(existing, now));
    }
  }

  private bump(existing: CoreV1Event, now: Date): Promise<CoreV1Event> {
    const { name, namespace } = existing.metadata;
    return this.core.replaceNamespacedEvent({ name: name!, namespace: namespace!, body: { ...existing, count: (existing.count ?? 1) + 1, lastTimestamp: now } });
  }

  private remember(name: string, event: CoreV1Event): void {
    this.written.delete(name);
    this.written.set(name, event);
    if (this.written.size > MAX_REMEMBERED) this.written.delete(this.written.keys().next().value!);
  }
}
