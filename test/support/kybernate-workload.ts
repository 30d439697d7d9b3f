// KybernateWorkloads on the test stack: create, read, delete, wait for their status; their pods and
// suspend checkpoints; and a loopback HTTP server standing in for the workload's container, which the
// simulated kubelet points the pod's IP at (annotation simulator.kubeairunway.ai/pod-ip), so that the
// activator's proxy reaches it.
import { createServer, request, type Server } from 'node:http';
import { CoreV1Api, Watch } from '@kubernetes/client-node';
import type { AddressInfo } from 'node:net';
import { CHECKPOINT_PLURAL, KYBERNATE_API_VERSION, KYBERNATE_GROUP, KYBERNATE_VERSION, WORKLOAD_KIND, WORKLOAD_LABEL, WORKLOAD_PLURAL } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint, KybernateWorkload } from '../../api/kybernate/types.ts';
import { POD_IP_ANNOTATION } from '../../devstack/simulators/pod-readiness.ts';
import { OUTCOME_ANNOTATION } from '../../devstack/simulators/simulator.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { eventually, kubeConfig } from './env.ts';

const objects = () => new CustomObjects(kubeConfig());
const WORKLOADS = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: WORKLOAD_PLURAL };
const CHECKPOINTS = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL };
const PODS = { group: '', version: 'v1', plural: 'pods' };
const MANAGER = 'kybernate-e2e';

/** A workload whose pod the simulated kubelet reports at 127.0.0.1 (or holds starting forever), serving `port`. */
export async function createWorkload(
  namespace: string,
  name: string,
  opts: { port: number; idleTimeout: string; queueTimeout: string; hold?: boolean; nodeName?: string; runtimeClassName?: string },
): Promise<KybernateWorkload> {
  const annotations = { [POD_IP_ANNOTATION]: '127.0.0.1', ...(opts.hold ? { [OUTCOME_ANNOTATION]: 'hold' } : {}) };
  const body = {
    apiVersion: KYBERNATE_API_VERSION,
    kind: WORKLOAD_KIND,
    metadata: { name, namespace },
    spec: {
      template: { metadata: { labels: { app: name }, annotations }, spec: { ...(opts.nodeName ? { nodeName: opts.nodeName } : {}), ...(opts.runtimeClassName ? { runtimeClassName: opts.runtimeClassName } : {}), containers: [{ name: 'model', image: 'busybox:local', ports: [{ containerPort: opts.port }] }] } },
      suspend: { enabled: true, idleTimeout: opts.idleTimeout },
      activator: { enabled: true, port: opts.port, healthPath: '/health', queueTimeout: opts.queueTimeout },
    },
  };
  return (await objects().apply({ ...WORKLOADS, namespace, name }, body as unknown as AnyObject, MANAGER)) as unknown as KybernateWorkload;
}

export async function getWorkload(namespace: string, name: string): Promise<KybernateWorkload | undefined> {
  return (await objects().get({ ...WORKLOADS, namespace, name })) as unknown as KybernateWorkload | undefined;
}

export async function deleteWorkload(namespace: string, name: string): Promise<void> {
  await objects().delete({ ...WORKLOADS, namespace, name });
}

export async function waitForWorkload(namespace: string, name: string, what: string, check: (w: KybernateWorkload) => boolean, timeoutMs = 60_000): Promise<KybernateWorkload> {
  return eventually(`KybernateWorkload ${name}: ${what}`, async () => {
    const w = await getWorkload(namespace, name);
    return w && check(w) ? w : undefined;
  }, timeoutMs, 100);
}

export function workloadCondition(w: KybernateWorkload, type: string) {
  return w.status?.conditions?.find((c) => c.type === type);
}

export async function getPod(namespace: string, name: string): Promise<AnyObject | undefined> {
  return objects().get({ ...PODS, namespace, name });
}

/** The KybernateCheckpoints a workload's suspends created (by its label). */
export async function workloadCheckpoints(namespace: string, workload: string): Promise<KybernateCheckpoint[]> {
  return (await objects().list({ ...CHECKPOINTS, namespace, labelSelector: `${WORKLOAD_LABEL}=${workload}` })) as unknown as KybernateCheckpoint[];
}

export async function workloadPods(namespace: string, workload: string): Promise<AnyObject[]> {
  return objects().list({ ...PODS, namespace, labelSelector: `${WORKLOAD_LABEL}=${workload}` });
}

/** Every phase the workload's status shows, polled often, until `stop`. */
export function recordPhases(namespace: string, name: string): { phases: string[]; stop(): Promise<void> } {
  const phases: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const phase = (await getWorkload(namespace, name).catch(() => undefined))?.status?.phase;
      if (phase && phases.at(-1) !== phase) phases.push(phase);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return {
    phases,
    /** Stops after one last look: a phase the caller already saw through another read is in the list. */
    stop: async () => {
      running = false;
      await loop;
      const phase = (await getWorkload(namespace, name).catch(() => undefined))?.status?.phase;
      if (phase && phases.at(-1) !== phase) phases.push(phase);
    },
  };
}

/** The workload's container, played on loopback: answers every request with what it received. */
export interface FakeContainer {
  port: number;
  requests: { method: string; url: string; body: string }[];
  close(): Promise<void>;
}

export async function startFakeContainer(): Promise<FakeContainer> {
  const requests: FakeContainer['requests'] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json', 'x-served-by': 'fake-container' });
      res.end(JSON.stringify({ served: req.url, method: req.method, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** One HTTP request: status, headers and the body as text. */
export function httpCall(url: string, opts: { method?: string; body?: string } = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'GET' }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

export interface WatchedEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  name: string;
  uid: string;
  object: AnyObject;
}

/** Every event of a workload's pods or checkpoints (by its label) from now on, as they happen. */
export async function watchWorkloadChildren(namespace: string, workload: string, what: 'pods' | 'checkpoints', onEvent: (e: WatchedEvent) => void = () => {}) {
  const ref = what === 'pods' ? { ...PODS, namespace } : { ...CHECKPOINTS, namespace };
  const labelSelector = `${WORKLOAD_LABEL}=${workload}`;
  const list = await objects().listRaw(ref, { labelSelector });
  const path = what === 'pods' ? `/api/v1/namespaces/${namespace}/pods` : `/apis/${KYBERNATE_GROUP}/${KYBERNATE_VERSION}/namespaces/${namespace}/${CHECKPOINT_PLURAL}`;
  const events: WatchedEvent[] = [];
  let error: unknown;
  const abort = await new Watch(kubeConfig()).watch(
    path,
    { labelSelector, resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: false },
    (type: string, obj: AnyObject) => {
      if (type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED') return;
      const event: WatchedEvent = { type, name: obj.metadata!.name!, uid: obj.metadata!.uid!, object: obj };
      events.push(event);
      onEvent(event);
    },
    (err: unknown) => {
      if (err && (err as { name?: string }).name !== 'AbortError') error = err;
    },
  );
  const of = (type: WatchedEvent['type']) => () => {
    if (error) throw new Error(`${what} watch of ${workload} failed: ${String(error)}`);
    return events.filter((e) => e.type === type).map((e) => e.uid);
  };
  return { events, added: of('ADDED'), deleted: of('DELETED'), stop: () => abort.abort() };
}

/**
 * A kubelet for the pods of one workload bound to a node that does not exist (their template names it):
 * a new pod is reported Running and Ready at 127.0.0.1 with a containerd container id, and a pod being
 * deleted is removed at once (a kubelet confirming its termination). What it did, in order.
 */
export function nodeKubelet(namespace: string, workload: string): { log: string[]; stop(): Promise<void> } {
  const log: string[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const pod of await workloadPods(namespace, workload).catch(() => [] as AnyObject[])) {
        const name = pod.metadata!.name!;
        const uid = pod.metadata!.uid!;
        if (pod.metadata?.deletionTimestamp) {
          await kubeConfig()
            .makeApiClient(CoreV1Api)
            .deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 })
            .then(() => log.push(`removed ${uid}`))
            .catch((err: unknown) => log.push(`remove ${uid} failed: ${String((err as Error).message).slice(0, 200)}`));
          continue;
        }
        if ((pod.status as { phase?: string } | undefined)?.phase === 'Running') continue;
        const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
        const containers = ((pod.spec as { containers?: { name: string; image?: string }[] }).containers ?? []);
        await objects()
          .mergePatchStatus({ ...PODS, namespace, name }, {
            metadata: { uid },
            status: {
              phase: 'Running',
              podIP: '127.0.0.1',
              conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }],
              containerStatuses: containers.map((c) => ({ name: c.name, containerID: `containerd://${uid.replace(/-/g, '')}`, ready: true, started: true, state: { running: { startedAt: at } }, image: c.image ?? '', imageID: '', restartCount: 0 })),
            },
          })
          .then(() => log.push(`started ${uid}`))
          .catch((err: unknown) => log.push(`start ${uid} failed: ${String((err as Error).message).slice(0, 200)}`));
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    log,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
