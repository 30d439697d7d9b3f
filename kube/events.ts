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

/**
 * Records Kubernetes events the way kubectl shows them. Repeats of the same event (same object, reason
 * and message) are aggregated into one Event with a higher count, as the Go event recorder does, so
 * an activity retried or a condition re-observed does not flood `kubectl describe`.
 */
export class EventRecorder {
  private readonly core: CoreV1Api;

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
    try {
      await this.core.createNamespacedEvent({ namespace: obj.namespace, body });
    } catch (err) {
      if (classifyKubeError(err).type !== 'AlreadyExists') throw err;
      const existing = await this.core.readNamespacedEvent({ name, namespace: obj.namespace });
      await this.core.replaceNamespacedEvent({
        name,
        namespace: obj.namespace,
        body: { ...existing, count: (existing.count ?? 1) + 1, lastTimestamp: now },
      });
    }
  }
}
