// The activator (seed 003 §3.3, "Wake-on-Request"): an HTTP endpoint in the controller process that
// receives requests for KybernateWorkloads at /<namespace>/<workload>/<path>. Each request tells the
// workload's workflow that there was activity (debounced: one signal per workload and second), which
// restarts its durable idle timer. A workload that is not Running (Suspended, Suspending, Restoring,
// Pending) is sent `wake`, and the request is held until it runs — read from the process's informer
// cache — at most activator.queueTimeout (then 503 naming the workload and the timeout). A running
// workload's request is proxied to its pod's IP at activator.port (502 when the pod cannot be reached).
// `/healthz` is the activator's own health; a workload's activator.healthPath is answered by the
// activator (it can always take requests) without waking the workload or counting as activity.

import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { KubeConfig } from '@kubernetes/client-node';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { KYBERNATE_GROUP, KYBERNATE_VERSION, WORKLOAD_KIND, WORKLOAD_LABEL, WORKLOAD_PLURAL, workloadPodName } from '../../../api/kybernate/constants.ts';
import { workflowIdFor } from '../../../contract/object-ref.ts';
import { CustomObjects, type AnyObject, type ResourceRef } from '../../../kube/custom-objects.ts';
import type { InformerSet } from '../../../kube/informer-set.ts';
import { activitySignal, wakeSignal } from '../../../workflows/kybernate/workload-signals.ts';
import { Debouncer, health, notFound, notServed, routeOf, servingTarget, timedOut, unreachable, workloadFacts, type Answer, type WorkloadFacts } from './routes.ts';
import { listenOn } from '../../../observability/listen.ts';

export interface ActivatorOptions {
  kc: KubeConfig;
  client: Client;
  /** The process's informers: workloads and their pods are read from the same caches the controller fills. */
  informers: InformerSet;
  /** The namespaces the controller serves; all when omitted. */
  namespaces?: readonly string[];
  host: string;
  /** 0: any free port. */
  port: number;
  /** At most one `activity` (and one `wake`) signal per workload in this interval. */
  signalIntervalMs?: number;
  /** How often a held request looks whether its workload runs. */
  pollMs?: number;
  log?: (line: string) => void;
}

export interface Activator {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const PODS = { group: '', version: 'v1', plural: 'pods' };
const workloadRef = (namespace: string, name: string): ResourceRef => ({ group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: WORKLOAD_PLURAL, namespace, name });

export async function startActivator(opts: ActivatorOptions): Promise<Activator> {
  const log = opts.log ?? (() => {});
  const objects = new CustomObjects(opts.kc);
  const signals = new Debouncer(opts.signalIntervalMs ?? 1_000);
  const pollMs = opts.pollMs ?? 100;
  // The same collections the controller's core watches (worker/controller.ts): shared, not duplicated.
  for (const namespace of opts.namespaces ?? [undefined]) {
    opts.informers.collection(WORKLOAD_KIND, { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: WORKLOAD_PLURAL, namespace });
    opts.informers.collection(`${WORKLOAD_KIND} pods`, { ...PODS, labelSelector: WORKLOAD_LABEL, namespace });
  }

  /** From the cache when it covers the object, else the API server. */
  const readWorkload = async (namespace: string, name: string): Promise<AnyObject | undefined> => {
    const cached = opts.informers.cached(workloadRef(namespace, name));
    return cached.known ? cached.object : objects.get(workloadRef(namespace, name));
  };
  const readPod = async (namespace: string, name: string): Promise<AnyObject | undefined> => {
    const ref = { ...PODS, namespace, name };
    const cached = opts.informers.cached(ref, { labelSelector: WORKLOAD_LABEL });
    return cached.known ? cached.object : objects.get(ref);
  };

  const signal = (namespace: string, name: string, uid: string, which: 'activity' | 'wake', reason: string) => {
    if (!signals.due(`${which}/${namespace}/${name}/${uid}`, Date.now())) return;
    const handle = opts.client.workflow.getHandle(workflowIdFor(WORKLOAD_KIND, { namespace, name, uid }));
    const at = new Date().toISOString();
    const sent = which === 'wake' ? handle.signal(wakeSignal, { reason, at }) : handle.signal(activitySignal, { at });
    sent.catch((err: unknown) => {
      // No workflow (yet): the watcher starts it; the next request signals again.
      if (!(err instanceof WorkflowNotFoundError)) log(`activator: ${which} signal to ${namespace}/${name} failed: ${(err as Error).message}`);
    });
  };

  const inFlight = new Set<ServerResponse>();
  let stopping = false;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const route = routeOf(req.url ?? '/');
    if (route.kind === 'health') return answer(res, { status: stopping ? 503 : 200, body: { activator: stopping ? 'stopping' : 'ok' } });
    if (route.kind === 'bad') return answer(res, { status: 400, body: { error: route.message } });
    const { namespace, name, path } = route;
    if (opts.namespaces && !opts.namespaces.includes(namespace)) return answer(res, notServed(namespace, name, `namespace ${namespace} is not served by this controller`));
    const obj = await readWorkload(namespace, name);
    if (!obj) return answer(res, notFound(namespace, name));
    const known = workloadFacts(obj);
    if (!known.ok) return answer(res, notServed(namespace, name, known.message));
    const facts = known.facts;
    if (!facts.activator.enabled) return answer(res, notServed(namespace, name, 'its activator.enabled is false'));
    if (path.split('?')[0] === facts.activator.healthPath) return answer(res, health(namespace, name, facts.phase));

    signal(namespace, name, facts.uid, 'activity', `request ${req.method} ${path}`);
    const podName = workloadPodName({ metadata: { name } });
    let target = servingTarget(facts, await readPod(namespace, podName));
    if (!target) {
      // Held: wake it, and look again until it runs, the client gives up, or queueTimeout passes.
      const heldSince = Date.now();
      const deadline = heldSince + facts.queueTimeoutMs;
      let closed = false;
      res.once('close', () => (closed = true));
      let current: WorkloadFacts = facts;
      for (;;) {
        signal(namespace, name, current.uid, 'wake', `request ${req.method} ${path}`);
        await sleep(pollMs);
        if (closed || stopping) return void (res.writableEnded || res.destroy());
        const now = await readWorkload(namespace, name);
        if (!now || now.metadata?.uid !== facts.uid) return answer(res, notFound(namespace, name));
        const refreshed = workloadFacts(now);
        if (refreshed.ok) current = refreshed.facts;
        target = servingTarget(current, await readPod(namespace, podName));
        if (target) break;
        if (Date.now() >= deadline) return answer(res, timedOut(namespace, name, facts, current.phase));
      }
      log(`activator: ${namespace}/${name} woke; ${req.method} ${path} held ${Date.now() - heldSince}ms`);
    }
    await proxy(req, res, target, path, namespace, name);
  };

  const server: Server = createServer((req, res) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
    handle(req, res).catch((err: unknown) => {
      log(`activator: ${req.method} ${req.url} failed: ${(err as Error).message}`);
      if (!res.headersSent) answer(res, { status: 500, body: { error: `activator: ${(err as Error).message}` } });
      else res.destroy();
    });
  });
  const port = await listenOn(server, opts.port, opts.host);
  const url = `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`;
  log(`activator listening on ${url}`);

  return {
    url,
    port,
    async stop() {
      stopping = true;
      // Held requests end at their next look; proxied ones are cut.
      const closing = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await sleep(pollMs * 2);
      for (const res of inFlight) res.destroy();
      server.closeAllConnections();
      await closing;
    },
  };
}

/** Forwards the request to the pod as it came (method, headers, body), and its answer back. */
function proxy(req: IncomingMessage, res: ServerResponse, target: { host: string; port: number }, path: string, namespace: string, name: string): Promise<void> {
  return new Promise((resolve) => {
    const upstream = httpRequest({ host: target.host, port: target.port, method: req.method, path, headers: { ...req.headers, host: `${target.host}:${target.port}` }, timeout: 30_000 }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
      up.once('end', resolve);
      up.once('error', () => (res.destroy(), resolve()));
    });
    upstream.once('timeout', () => upstream.destroy(new Error('no answer within 30s')));
    upstream.once('error', (err) => {
      if (!res.headersSent) answer(res, unreachable(namespace, name, target, err.message));
      else res.destroy();
      resolve();
    });
    req.pipe(upstream);
  });
}

function answer(res: ServerResponse, a: Answer): void {
  if (res.writableEnded || res.destroyed) return;
  const body = JSON.stringify(a.body);
  res.writeHead(a.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...a.headers });
  res.end(body);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
