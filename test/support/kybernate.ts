// KybernateCheckpoints on the test stack: create, read, delete, wait for their status; and the pod they
// checkpoint, made the way kubelet would report it (no kubelet here): bound to a node by name, its status
// patched to Running with the containerd id of a container the test started in a real containerd.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CoreV1Api } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { CHECKPOINT_PLURAL, KYBERNATE_GROUP, KYBERNATE_VERSION } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint } from '../../api/kybernate/types.ts';
import type { ContainerdClient } from '../../containerd/client.ts';
import { buildBusyboxRootfs, COUNTER_ARGS, type Containerd } from '../../devstack/containerd.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { eventually, eventuallyMatches, kubeConfig } from './env.ts';

const objects = () => new CustomObjects(kubeConfig());
const CHECKPOINTS = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: CHECKPOINT_PLURAL };
const PODS = { group: '', version: 'v1', plural: 'pods' };
/** Who writes the spec of the checkpoints (and the pods) the tests create. */
const MANAGER = 'kybernate-e2e';

/** The example (examples/kybernate-checkpoint.yaml), renamed into a namespace, pointed at a pod, without the GPU plugin. */
export function checkpointExample(namespace: string, name: string, podName: string, containerName?: string): KybernateCheckpoint {
  const cp = parse(readFileSync(new URL('../../examples/kybernate-checkpoint.yaml', import.meta.url), 'utf8')) as KybernateCheckpoint;
  cp.metadata = { name, namespace };
  cp.spec.podName = podName;
  if (containerName) cp.spec.containerName = containerName;
  else delete cp.spec.containerName;
  cp.spec.gpu = { enabled: false };
  return cp;
}

export async function createCheckpoint(cp: KybernateCheckpoint): Promise<KybernateCheckpoint> {
  return (await objects().apply({ ...CHECKPOINTS, namespace: cp.metadata.namespace!, name: cp.metadata.name }, cp as unknown as AnyObject, MANAGER)) as unknown as KybernateCheckpoint;
}

export async function getCheckpoint(namespace: string, name: string): Promise<KybernateCheckpoint | undefined> {
  return (await objects().get({ ...CHECKPOINTS, namespace, name })) as unknown as KybernateCheckpoint | undefined;
}

/** Writes into the checkpoint's status as if its workflow had (a merge patch of the status subresource). */
export async function patchCheckpointStatus(namespace: string, name: string, status: object): Promise<void> {
  await objects().mergePatchStatus({ ...CHECKPOINTS, namespace, name }, { status });
}

export async function deleteCheckpoint(namespace: string, name: string): Promise<void> {
  await objects().delete({ ...CHECKPOINTS, namespace, name });
}

export function waitForCheckpoint(namespace: string, name: string, what: string, check: (cp: KybernateCheckpoint) => boolean, timeoutMs = 60_000): Promise<KybernateCheckpoint> {
  return eventuallyMatches(`KybernateCheckpoint ${name}: ${what}`, () => getCheckpoint(namespace, name), check, timeoutMs);
}

/** The checkpoint reached a terminal phase (Completed or Failed). */
export const finished = (cp: KybernateCheckpoint): boolean => cp.status?.phase === 'Completed' || cp.status?.phase === 'Failed';

export async function waitCheckpointGone(namespace: string, name: string, timeoutMs = 60_000): Promise<void> {
  await eventually(`KybernateCheckpoint ${name} to be gone`, async () => (await getCheckpoint(namespace, name)) === undefined, timeoutMs);
}

export function readyCondition(cp: KybernateCheckpoint) {
  return cp.status?.conditions?.find((c) => c.type === 'Ready');
}

/**
 * A pod bound to `nodeName` (no Node and no kubelet behind it: it stays as created) whose status says what
 * kubelet would say of a running container: phase Running, the container's `containerd://<id>`.
 */
export async function runningPodOn(namespace: string, name: string, nodeName: string, container: { name: string; containerId: string; image?: string }): Promise<AnyObject> {
  const image = container.image ?? 'busybox:local';
  await objects().apply(
    { ...PODS, namespace, name },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { nodeName, containers: [{ name: container.name, image, command: ['/bin/sh', '-c', 'sleep infinity'] }] } },
    MANAGER,
  );
  const startedAt = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return objects().mergePatchStatus(
    { ...PODS, namespace, name },
    {
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: startedAt }],
        containerStatuses: [
          {
            name: container.name,
            containerID: `containerd://${container.containerId}`,
            ready: true,
            started: true,
            state: { running: { startedAt } },
            image,
            imageID: `${image}@sha256:${'0'.repeat(64)}`,
            restartCount: 0,
          },
        ],
      },
    },
  );
}

/** Removes a pod at once (no kubelet will ever confirm a graceful deletion of a pod bound to a node). */
export async function forceDeletePod(namespace: string, name: string): Promise<void> {
  await kubeConfig()
    .makeApiClient(CoreV1Api)
    .deleteNamespacedPod({ name, namespace, gracePeriodSeconds: 0 })
    .catch(() => undefined);
}

/** A busybox counter container running in a real containerd: its count is in `<rootfs>/tmp/count`. */
export interface Counter {
  id: string;
  rootfs: string;
  count(): number;
  /** Waits until the count reaches `atLeast`; the count then. */
  waitForCount(atLeast: number, timeoutMs?: number): Promise<number>;
  /** Stops and deletes the task and the container, whatever state they are in. */
  remove(): Promise<void>;
}

/** Creates and starts a counter container `id` (root file system under `dir`) and waits for its first count. */
export async function startCounter(client: ContainerdClient, ctd: Containerd, dir: string, id: string): Promise<Counter> {
  const rootfs = buildBusyboxRootfs(join(dir, `rootfs-${id}`));
  await client.createContainer(id, { rootfs, args: COUNTER_ARGS, runtime: { runcRoot: ctd.runcRoot } });
  await client.startTask(id);
  const count = () => {
    try {
      return Number(readFileSync(join(rootfs, 'tmp', 'count'), 'utf8').trim()) || 0;
    } catch {
      return 0;
    }
  };
  const counter: Counter = {
    id,
    rootfs,
    count,
    waitForCount: (atLeast, timeoutMs = 10_000) => eventually(`counter ${id} to reach ${atLeast} (at ${count()})`, async () => (count() >= atLeast ? count() : undefined), timeoutMs, 100),
    remove: async () => void (await client.removeContainer(id)),
  };
  await counter.waitForCount(1);
  return counter;
}
