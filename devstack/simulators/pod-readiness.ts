import { createHash } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { classifyKubeError } from '../../kube/errors.ts';
import { resilientInformer, type StartedInformer, type WatchedObject } from '../../kube/informer.ts';
import { Outage } from '../../kube/outage.ts';
import { OUTCOME_ANNOTATION, parseOutcome, type Outcome, type Simulator } from './simulator.ts';

/**
 * A stand-in kubelet for the local stack, which has no nodes: pods that kinds like FlameCluster create
 * would stay Pending forever. This writes the status a kubelet would (Running and Ready with a pod IP,
 * or Failed), so status aggregation can be driven end to end. The pods stay unbound: the API server
 * deletes an unscheduled pod at once, whereas a pod bound to a fake node would hang in Terminating.
 *
 * The POD's own annotation `simulator.kubeairunway.ai/outcome` chooses the ending: `ready` (default),
 * `hold` (leave it as it is), or `fail: <message>`; changing it on a live pod simulates again.
 */
export interface PodReadinessOptions {
  /** Pods this simulator plays kubelet for; default: every pod carrying the FlameCluster label. */
  labelSelector?: string;
  /** How long the "kubelet" takes to start the containers. */
  readyAfterMs?: number;
  /** Watch only these namespaces (a test's own); default: all. */
  namespaces?: readonly string[];
  log?: (line: string) => void;
}

export const FLAME_POD_SELECTOR = 'flame.xflops.io/cluster';

/**
 * On a pod: the IP its simulated status reports instead of a made-up one (a test that serves the pod's
 * port itself, on 127.0.0.1, so that the KybernateWorkload activator's proxy reaches it).
 */
export const POD_IP_ANNOTATION = 'simulator.kubeairunway.ai/pod-ip';

interface PodSpec {
  containers?: { name: string; image?: string }[];
}

interface PodStatus {
  phase?: string;
  podIP?: string;
  conditions?: { type: string; status: string }[];
}

/** What a pod was last simulated for: its outcome annotation, and the write waiting to happen. */
interface Handled {
  value: string;
  timer?: NodeJS.Timeout;
}

const podSpec = (pod: AnyObject) => (pod.spec ?? {}) as PodSpec;
const podStatus = (pod: AnyObject) => (pod.status ?? {}) as PodStatus;
const isTerminal = (pod: AnyObject) => ['Failed', 'Succeeded'].includes(podStatus(pod).phase ?? '');

/** Ready already (e.g. written by a simulator before a restart): writing it again would only churn. */
function showsReady(pod: AnyObject): boolean {
  const status = podStatus(pod);
  return status.phase === 'Running' && !!status.podIP && !!status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
}

/** Stable per pod, so a rewrite after a restart does not move it (and tests can rely on it not changing). */
export function simulatedPodIp(uid: string): string {
  const [a, b, c] = createHash('sha256').update(uid).digest();
  return `10.${a}.${b}.${(c! % 254) + 1}`;
}

const condition = (type: string, status: 'True' | 'False', at: string, reason?: string, message?: string) => ({
  type,
  status,
  lastProbeTime: null,
  lastTransitionTime: at,
  ...(reason ? { reason } : {}),
  ...(message ? { message } : {}),
});

function runningStatus(pod: AnyObject): Record<string, unknown> {
  const at = new Date().toISOString();
  const ip = pod.metadata?.annotations?.[POD_IP_ANNOTATION] ?? simulatedPodIp(pod.metadata!.uid!);
  return {
    phase: 'Running',
    podIP: ip,
    podIPs: [{ ip }],
    startTime: at,
    conditions: ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'].map((type) => condition(type, 'True', at)),
    containerStatuses: (podSpec(pod).containers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: '',
      ready: true,
      started: true,
      restartCount: 0,
      state: { running: { startedAt: at } },
    })),
  };
}

function failedStatus(pod: AnyObject, message: string): Record<string, unknown> {
  const at = new Date().toISOString();
  const startTime = (pod.status as { startTime?: string } | undefined)?.startTime ?? at;
  return {
    phase: 'Failed',
    reason: 'Simulated',
    message,
    startTime,
    conditions: [
      condition('PodScheduled', 'True', at),
      condition('Initialized', 'True', at),
      condition('ContainersReady', 'False', at, 'PodFailed', message),
      condition('Ready', 'False', at, 'PodFailed', message),
    ],
    containerStatuses: (podSpec(pod).containers ?? []).map((c) => ({
      name: c.name,
      image: c.image ?? '',
      imageID: '',
      ready: false,
      started: false,
      restartCount: 0,
      state: { terminated: { exitCode: 1, reason: 'Error', message, startedAt: startTime, finishedAt: at } },
    })),
  };
}

export async function startPodReadinessSimulator(kc: KubeConfig, opts: PodReadinessOptions = {}): Promise<Simulator> {
  const objects = new CustomObjects(kc);
  const log = opts.log ?? (() => {});
  const labelSelector = opts.labelSelector ?? FLAME_POD_SELECTOR;
  const readyAfter = opts.readyAfterMs ?? 1_000;
  // Keyed by uid: a pod deleted and recreated under its name is a new pod and is simulated again.
  const handled = new Map<string, Handled>();
  const writing = new Set<Promise<unknown>>();
  const watchOutage = new Outage('pod-readiness simulator: watch', log);
  const writeOutage = new Outage('pod-readiness simulator: status writes', log);
  let stopped = false;

  const cached = (namespace: string, name: string): AnyObject | undefined => {
    for (const { informer } of informers) {
      const pod = informer.get(name, namespace);
      if (pod) return pod;
    }
    return undefined;
  };

  const schedule = (entry: Handled, ms: number, write: () => Promise<void>) => {
    clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void write();
    }, ms);
  };

  /** Writes the outcome chosen by `value`, unless the pod has since changed its mind, gone, or been replaced. */
  const write = async (uid: string, value: string, namespace: string, name: string, outcome: Outcome): Promise<void> => {
    const entry = handled.get(uid);
    if (stopped || entry?.value !== value) return;
    const pod = cached(namespace, name);
    if (!pod || pod.metadata?.uid !== uid || pod.metadata.deletionTimestamp || isTerminal(pod)) return;
    const status = outcome.kind === 'fail' ? failedStatus(pod, outcome.message) : runningStatus(pod);
    // The uid in the patch is a precondition: the cache can lag a delete and recreate, and the new pod's
    // status is for its own turn (the API server refuses to change a uid, so the patch fails instead).
    const patching = objects.mergePatchStatus({ group: '', version: 'v1', plural: 'pods', namespace, name }, { metadata: { uid }, status });
    writing.add(patching);
    try {
      await patching;
      writeOutage.succeeded();
    } catch (err) {
      const kind = classifyKubeError(err);
      if (kind.type === 'NotFound' || stopped) return;
      if (!kind.retryable) {
        // A rejected status (or a replaced pod) would be rejected again: say so once and leave it.
        if (cached(namespace, name)?.metadata?.uid === uid) log(`pod-readiness simulator: status of ${namespace}/${name} refused: ${kind.message.split('\n')[0]}`);
        return;
      }
      // A kubelet keeps reporting until the API server takes it; a moment's outage must not strand a pod.
      writeOutage.failed(kind.message);
      if (handled.get(uid) === entry) schedule(entry, 1_000, () => write(uid, value, namespace, name, outcome));
    } finally {
      writing.delete(patching);
    }
  };

  // Status writes come back as watch events with the annotation unchanged, so they end here (no loop).
  const consider = (pod: AnyObject) => {
    const uid = pod.metadata?.uid;
    const { namespace, name } = pod.metadata ?? {};
    if (stopped || !uid || !namespace || !name || pod.metadata?.deletionTimestamp) return;
    const value = pod.metadata?.annotations?.[OUTCOME_ANNOTATION] ?? '';
    const previous = handled.get(uid);
    if (previous?.value === value) return;
    clearTimeout(previous?.timer);
    const entry: Handled = { value };
    handled.set(uid, entry);
    const outcome = parseOutcome(value);
    // A finished pod never runs again, and `hold` means the kubelet is still (forever) starting it.
    if (isTerminal(pod) || outcome.kind === 'hold' || (outcome.kind === 'ready' && showsReady(pod))) return;
    schedule(entry, readyAfter, () => write(uid, value, namespace, name, outcome));
  };

  const forget = (pod: AnyObject) => {
    const uid = pod.metadata?.uid ?? '';
    clearTimeout(handled.get(uid)?.timer);
    handled.delete(uid);
  };

  const informers: StartedInformer<WatchedObject>[] = (opts.namespaces ?? [undefined]).map((namespace) => {
    const ref = { group: '', version: 'v1', plural: 'pods', namespace };
    const started = resilientInformer<WatchedObject>(
      kc,
      namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods` : '/api/v1/pods',
      () => objects.listRaw<WatchedObject>(ref, { labelSelector }),
      { labelSelector, onError: (err) => watchOutage.failed(String((err as Error)?.message ?? err)), onRecovered: () => watchOutage.succeeded() },
    );
    started.informer.on('add', (o) => consider(o));
    started.informer.on('update', (o) => consider(o));
    started.informer.on('delete', (o) => forget(o));
    return started;
  });
  await Promise.all(informers.map((i) => i.start()));

  return {
    async stop() {
      stopped = true;
      for (const entry of handled.values()) clearTimeout(entry.timer);
      handled.clear();
      await Promise.all(informers.map((i) => i.stop()));
      // A write already on the wire finishes or fails by itself; wait for it a little, not for its timeout.
      let cap: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...writing]), new Promise((resolve) => (cap = setTimeout(resolve, 2_000)))]);
      clearTimeout(cap);
    },
  };
}
