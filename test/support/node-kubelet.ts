// The scheduler and kubelet of one node whose containers are real: no kubelet runs here, so the test plays
// them against the node's containerd (the Kybernate node container's, with a CRIU that works). A pod bound
// to the node — or pinned to it by a required node affinity on its name, as a restore pod is; the test
// binds it as the scheduler would — gets a real container in kubelet's containerd namespace: a busybox
// counter, or, for a pod annotated kybernate.io/restore-from, the task restored from that checkpoint
// image (what Kybernate's restoring shim does on a real node). Its status then says Running with the
// container's id. A deleted pod's container is removed and the pod released at once.
import { join } from 'node:path';
import { CoreV1Api, type V1Pod } from '@kubernetes/client-node';
import { RESTORE_FROM_ANNOTATION } from '../../api/kybernate/constants.ts';
import type { ContainerdClient } from '../../containerd/client.ts';
import { buildBusyboxRootfs, COUNTER_ARGS, type Containerd } from '../../devstack/containerd.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { kubeConfig } from './env.ts';

const PODS = { group: '', version: 'v1', plural: 'pods' };

export interface NodeKubelet {
  /** What it did, in order: `started <pod>`, `restored <pod> from <ref>`, `removed <pod>`, failures. */
  log: string[];
  /** The container id it gave a pod (by pod name, latest pod of that name). */
  containers: Map<string, string>;
  /** Root file systems of the counters it started, by pod name (a restored task keeps its original's). */
  rootfs: Map<string, string>;
  stop(): Promise<void>;
}

/** Whether a pod's required node affinity names `node` by metadata.name (how a restore pod is pinned). */
function pinnedTo(pod: V1Pod, node: string): boolean {
  const terms = pod.spec?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  return terms.some((t) => (t.matchFields ?? []).some((f) => f.key === 'metadata.name' && f.operator === 'In' && (f.values ?? []).includes(node)));
}

export function realNodeKubelet(opts: { namespace: string; node: string; client: ContainerdClient; containerd: Containerd; dir: string }): NodeKubelet {
  const { namespace, node, client, containerd, dir } = opts;
  const core = kubeConfig().makeApiClient(CoreV1Api);
  const objects = new CustomObjects(kubeConfig());
  const log: string[] = [];
  const containers = new Map<string, string>();
  const rootfs = new Map<string, string>();
  /** Pod uids already handled (started, restored, or failed): each is acted on once. */
  const handled = new Set<string>();
  let running = true;

  async function run(pod: V1Pod): Promise<void> {
    const name = pod.metadata!.name!;
    const uid = pod.metadata!.uid!;
    const id = uid.replace(/-/g, '');
    const from = pod.metadata?.annotations?.[RESTORE_FROM_ANNOTATION];
    if (from) {
      await client.restoreTask(from, { containerId: id, workPath: join(dir, `criu-work-${id}`), runtime: { runcRoot: containerd.runcRoot } });
      log.push(`restored ${name} from ${from}`);
    } else {
      const root = buildBusyboxRootfs(join(dir, `rootfs-${id}`));
      await client.createContainer(id, { rootfs: root, args: COUNTER_ARGS, runtime: { runcRoot: containerd.runcRoot } });
      await client.startTask(id);
      rootfs.set(name, root);
      log.push(`started ${name}`);
    }
    containers.set(name, id);
    const at = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    await objects.mergePatchStatus(
      { ...PODS, namespace, name },
      {
        metadata: { uid },
        status: {
          phase: 'Running',
          hostIP: '127.0.0.1',
          podIP: '127.0.0.1',
          conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: at }],
          containerStatuses: (pod.spec?.containers ?? []).map((c, i) => ({
            name: c.name,
            ...(i === 0 ? { containerID: `containerd://${id}` } : {}),
            ready: i === 0,
            started: i === 0,
            state: i === 0 ? { running: { startedAt: at } } : { waiting: { reason: 'NotRunHere' } },
            image: c.image ?? '',
            imageID: '',
            restartCount: 0,
          })),
        },
      },
    );
  }

  async function pass(): Promise<void> {
    const { items } = await core.listNamespacedPod({ namespace });
    for (const pod of items) {
      const name = pod.metadata!.name!;
      const uid = pod.metadata!.uid!;
      const ours = pod.spec?.nodeName === node || (!pod.spec?.nodeName && pinnedTo(pod, node));
      if (!ours) continue;
      if (pod.metadata?.deletionTimestamp) {
        if (handled.has(uid)) await client.removeContainer(uid.replace(/-/g, '')).catch((err: Error) => log.push(`remove container of ${name} failed: ${err.message}`));
        await core.deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 }).catch(() => undefined);
        if (handled.delete(uid)) log.push(`removed ${name}`);
        continue;
      }
      if (handled.has(uid)) continue;
      handled.add(uid);
      try {
        if (!pod.spec?.nodeName) {
          await core.createNamespacedBinding({ namespace, body: { metadata: { name }, target: { apiVersion: 'v1', kind: 'Node', name: node } } });
          log.push(`bound ${name}`);
        }
        await run(pod);
      } catch (err) {
        log.push(`${name} failed: ${(err as Error).message.slice(0, 400)}`);
      }
    }
  }

  const loop = (async () => {
    while (running) {
      await pass().catch((err: Error) => log.push(`pass failed: ${err.message.slice(0, 200)}`));
      await new Promise((r) => setTimeout(r, 150));
    }
  })();
  return {
    log,
    containers,
    rootfs,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
