// One node for everything (issue 33): the cluster's node is also the Kybernate node and runs Flame's and
// Asya's pods. Each function is what a newcomer does with kubectl against the installed product: a pod and
// a KybernateCheckpoint of it; a KybernateWorkload suspended by a checkpoint and woken through the
// activator; the seed's FlameCluster example; an AsyncActor. Nothing here plays the kubelet: every pod is
// started, probed and stopped by the real one, and every dump is CRIU's, through the node worker's pod.
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import { queueName } from '../../api/asya/constants.ts';
import { SYSTEM_NAMESPACE } from '../../api/constants.ts';
import { FLAME_CLUSTER_LABEL } from '../../api/flame/constants.ts';
import { RESTORE_FROM_ANNOTATION, suspendCheckpointName } from '../../api/kybernate/constants.ts';
import type { Cluster } from '../../devstack/cluster/cluster.ts';
import { BUSYBOX_IMAGE, criImageName } from '../../devstack/kubelet-node.ts';
import { eventually } from '../support/env.ts';
import type { ClusterCommands } from './cluster-kubectl.ts';
import { withPortForward } from './test-cluster.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface NodeContext {
  cluster: Cluster;
  cmd: ClusterCommands;
  say(line: string): void;
}

const seconds = (t0: number) => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const busybox = { image: criImageName(BUSYBOX_IMAGE), imagePullPolicy: 'Never' };

/** The images in the node's containerd (namespace k8s.io, the kubelet's), by name. */
async function nodeImages({ cluster }: NodeContext): Promise<string[]> {
  const { container, socket } = cluster.node;
  const out = await cluster.engine.run(['exec', container, 'ctr', '--address', socket, '-n', 'k8s.io', 'images', 'ls', '-q'], { timeoutMs: 30_000 });
  return out.split('\n').filter(Boolean);
}

async function jsonOf<T>(ctx: NodeContext, args: string[]): Promise<T> {
  return JSON.parse(await ctx.cmd.kubectlOk(['get', ...args, '-o', 'json'])) as T;
}

interface CheckpointObject {
  status?: { phase?: string; checkpointRef?: string; checkpointSize?: string; nodeName?: string; message?: string };
}

/** A checkpoint's status once Completed; a Failed one fails the test with its message. */
async function checkpointCompleted(ctx: NodeContext, name: string): Promise<NonNullable<CheckpointObject['status']>> {
  return eventually(`KybernateCheckpoint ${name} Completed`, async () => {
    const { status } = await jsonOf<CheckpointObject>(ctx, ['kcp', name]);
    if (status?.phase === 'Failed') throw new Error(`KybernateCheckpoint ${name} Failed: ${status.message}`);
    return status?.phase === 'Completed' ? status : undefined;
  }, 180_000, 500);
}

/** A pod on the pod network that counts, a KybernateCheckpoint of it Completed through the node worker's pod, the pod running on; deleting the checkpoint deletes its image. */
export async function checkpointOfARunningPod(ctx: NodeContext): Promise<void> {
  const { cmd, say, cluster } = ctx;
  const count = 'i=0; while true; do i=$((i+1)); echo $i > /tmp/count; sleep 1; done';
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'counter', namespace: 'default' }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'count', ...busybox, command: ['sh', '-c', count] }] } };
  await cmd.kubectlOk(['apply', '-f', '-'], JSON.stringify(pod));
  await cmd.kubectlOk(['wait', '--for=condition=Ready', 'pod/counter', '--timeout=120s']);
  const t0 = Date.now();
  const checkpoint = { apiVersion: 'kybernate.io/v1alpha1', kind: 'KybernateCheckpoint', metadata: { name: 'counter-now', namespace: 'default' }, spec: { podName: 'counter' } };
  await cmd.kubectlOk(['apply', '-f', '-'], JSON.stringify(checkpoint));
  const status = await checkpointCompleted(ctx, 'counter-now');
  say(`KybernateCheckpoint of a running pod Completed ${seconds(t0)} after kubectl apply: ${status.checkpointRef} (${status.checkpointSize})`);
  expect(status.nodeName).toBe(cluster.node.nodeName);
  expect(status.checkpointRef).toMatch(/^containerd\.io\/checkpoint\/[0-9a-f]{64}:/);
  expect(await nodeImages(ctx)).toContain(status.checkpointRef);
  // leaveRunning (the default): the same container counts on, never restarted.
  const counted = Number(await cmd.kubectlOk(['exec', 'counter', '--', 'cat', '/tmp/count']));
  await eventually('the pod to count on after the dump', async () => Number(await cmd.kubectlOk(['exec', 'counter', '--', 'cat', '/tmp/count'])) > counted || undefined, 30_000, 500);
  expect((await cmd.kubectlOk(['get', 'pod', 'counter', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}'])).trim()).toBe('0');
  // The finalizer removes the image on the node before the checkpoint goes.
  await cmd.kubectlOk(['delete', 'kcp', 'counter-now', '--timeout=120s']);
  expect(await nodeImages(ctx)).not.toContain(status.checkpointRef);
  await cmd.kubectlOk(['delete', 'pod', 'counter', '--timeout=60s']);
}

interface WorkloadObject {
  status?: { phase?: string; podName?: string; suspendedCheckpoints?: number; conditions?: { type: string; status: string; message?: string }[] };
}

/**
 * A KybernateWorkload serving HTTP from its pod: idle, it is checkpointed (CRIU, through the node worker)
 * and its pod deleted; a request through the activator's Service wakes it and gets the pod's answer.
 */
export async function workloadSuspendedAndWoken(ctx: NodeContext): Promise<void> {
  const { cmd, say } = ctx;
  const serve = 'busybox mkdir -p /tmp/www && echo ok > /tmp/www/health && echo hello from the node > /tmp/www/index.html && exec busybox httpd -f -p 8080 -h /tmp/www';
  const workload = {
    apiVersion: 'kybernate.io/v1alpha1',
    kind: 'KybernateWorkload',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      template: { metadata: { labels: { app: 'web' } }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'web', ...busybox, command: ['sh', '-c', serve], ports: [{ containerPort: 8080 }] }] } },
      suspend: { enabled: true, idleTimeout: '15s' },
      activator: { enabled: true, port: 8080, healthPath: '/health' },
    },
  };
  const t0 = Date.now();
  await cmd.kubectlOk(['apply', '-f', '-'], JSON.stringify(workload));
  const phase = (want: string, timeoutMs: number) =>
    eventually(`KybernateWorkload web ${want}`, async () => {
      const { status } = await jsonOf<WorkloadObject>(ctx, ['kwl', 'web']);
      return status?.phase === want ? status : undefined;
    }, timeoutMs, 500);
  const running = await phase('Running', 120_000);
  say(`KybernateWorkload web Running ${seconds(t0)} after kubectl apply (pod ${running.podName})`);
  expect((await cmd.kubectlOk(['get', 'pod', running.podName!, '-o', 'jsonpath={.spec.nodeName}'])).trim()).toBe(ctx.cluster.node.nodeName);
  const suspended = await phase('Suspended', 180_000);
  say(`KybernateWorkload web Suspended ${seconds(t0)} after kubectl apply (idle timeout 15s)`);
  expect(suspended.suspendedCheckpoints).toBe(1);
  expect(suspended.conditions?.find((c) => c.type === 'SuspendDegraded')?.status).not.toBe('True');
  const { status: checkpoint } = await jsonOf<CheckpointObject>(ctx, ['kcp', suspendCheckpointName('web', 1)]);
  expect(checkpoint?.phase).toBe('Completed');
  expect(await nodeImages(ctx)).toContain(checkpoint?.checkpointRef);
  // Suspended follows the pod's deletion; the kubelet and the API server finish it a moment later (seen: a
  // few seconds on a loaded machine, the dumped container already stopped).
  await eventually('the suspended workload\'s pod gone', async () => (await cmd.kubectlOk(['get', 'pods', '-l', 'app=web', '-o', 'name'])).trim() === '' || undefined, 60_000, 500);
  // The request waits while the workload wakes, then gets the new pod's answer.
  const t1 = Date.now();
  const answer = await withPortForward(ctx.cluster.kubeconfigPath, SYSTEM_NAMESPACE, 'svc/kubeairunway-activator', 80, async (local) => {
    const res = await fetch(`http://127.0.0.1:${local}/default/web/index.html`, { signal: AbortSignal.timeout(60_000) });
    return `${res.status} ${(await res.text()).trim()}`;
  });
  expect(answer).toBe('200 hello from the node');
  say(`a request through the activator woke it and was answered in ${seconds(t1)}`);
  const woken = await phase('Running', 60_000);
  // containerd 1.7's CRI cannot restore a pod from a checkpoint image: the annotated pod starts fresh.
  const annotation = (await cmd.kubectlOk(['get', 'pod', woken.podName!, '-o', `jsonpath={.metadata.annotations.${RESTORE_FROM_ANNOTATION.replaceAll('.', '\\.')}}`])).trim();
  expect(annotation).toBe(checkpoint?.checkpointRef);
  await cmd.kubectlOk(['delete', 'kwl', 'web', '--timeout=120s']);
  await eventually('the workload\'s checkpoint image to be removed from the node', async () => !(await nodeImages(ctx)).includes(checkpoint!.checkpointRef!) || undefined, 120_000, 1_000);
}

interface FlameObject {
  status?: { state?: string; message?: string; executorManager?: { ready?: number } };
}

/** The seed's FlameCluster example, unchanged: its session manager and three executor managers Running and Ready on the node. */
export async function flameClusterRunning(ctx: NodeContext): Promise<void> {
  const { cmd, say } = ctx;
  const t0 = Date.now();
  await cmd.kubectlOk(['apply', '-n', 'default', '-f', join(ROOT, 'examples', 'flame-cluster.yaml')]);
  const status = await eventually('FlameCluster my-flame Running with 3 ready executor managers', async () => {
    const { status } = await jsonOf<FlameObject>(ctx, ['fc', 'my-flame']);
    return status?.state === 'Running' && status.executorManager?.ready === 3 ? status : undefined;
  }, 180_000, 500);
  say(`FlameCluster my-flame Running with 3 executor managers ${seconds(t0)} after kubectl apply (${status.message ?? ''})`);
  const pods = await jsonOf<{ items: { spec: { nodeName: string }; status: { phase: string } }[] }>(ctx, ['pods', '-l', `${FLAME_CLUSTER_LABEL}=my-flame`]);
  expect(pods.items.map((p) => [p.spec.nodeName, p.status.phase])).toEqual(Array(4).fill([ctx.cluster.node.nodeName, 'Running']));
  await cmd.kubectlOk(['delete', 'fc', 'my-flame', '--timeout=120s']);
  await eventually('my-flame\'s pods to be gone', async () => (await cmd.kubectlOk(['get', 'pods', '-l', `${FLAME_CLUSTER_LABEL}=my-flame`, '-o', 'name'])).trim() === '' || undefined, 120_000, 1_000);
}

interface ActorObject {
  status?: { status?: string; readyReplicas?: number; conditions?: { type: string; status: string; message?: string }[] };
}

/**
 * An AsyncActor (standalone, no scaling, the echo handler) whose pod runs on the node: the runtime is the
 * script from the namespace's ConfigMap on Debian's python3, Ready by its own probes; the sidecar (a
 * stand-in: Asya's image is on no registry here) reaches it through the shared socket and gets its reply.
 */
export async function asyncActorRunning(ctx: NodeContext): Promise<void> {
  const { cmd, say } = ctx;
  // The namespace's broker connection, which the sidecar reads (envFrom); created once by whoever runs RabbitMQ.
  await cmd.kubectlOk(['create', 'secret', 'generic', 'asya-rabbitmq', '--from-literal=RABBITMQ_URL=amqp://guest:guest@rabbitmq.invalid:5672/']);
  const actor = {
    apiVersion: 'asya.sh/v1alpha1',
    kind: 'AsyncActor',
    metadata: { name: 'echo', namespace: 'default' },
    spec: {
      transport: 'rabbitmq',
      scaling: { enabled: false },
      workload: { kind: 'Deployment', replicas: 1, template: { metadata: { labels: { app: 'echo' } }, spec: { containers: [{ name: 'asya-runtime', image: 'python:3.13' }] } } },
    },
  };
  const t0 = Date.now();
  await cmd.kubectlOk(['apply', '-f', '-'], JSON.stringify(actor));
  const status = await eventually('AsyncActor echo Running with 1 ready replica', async () => {
    const { status } = await jsonOf<ActorObject>(ctx, ['asyncactor', 'echo']);
    return status?.status === 'Running' && status.readyReplicas === 1 ? status : undefined;
  }, 180_000, 500);
  say(`AsyncActor echo ${status.status} with ${status.readyReplicas} ready replica ${seconds(t0)} after kubectl apply`);
  const pods = await jsonOf<{ items: { metadata: { name: string }; spec: { nodeName: string }; status: { containerStatuses: { name: string; ready: boolean; restartCount: number }[] } }[] }>(ctx, ['pods', '-l', 'app=echo']);
  expect(pods.items).toHaveLength(1);
  const pod = pods.items[0]!;
  expect(pod.spec.nodeName).toBe(ctx.cluster.node.nodeName);
  expect(pod.status.containerStatuses.map((c) => [c.name, c.ready, c.restartCount]).sort()).toEqual([['asya-runtime', true, 0], ['asya-sidecar', true, 0]]);
  const reply = await eventually('the sidecar to log the runtime\'s reply', async () => {
    const log = await cmd.kubectlOk(['logs', pod.metadata.name, '-c', 'asya-sidecar']);
    return /runtime replied (.*)/.exec(log)?.[1];
  }, 60_000, 1_000);
  // The echo handler (no ASYA_HANDLER) answers the message itself.
  expect(JSON.parse(reply)).toEqual({ ok: true, result: { actor: 'echo', queue: queueName('echo') } });
  await cmd.kubectlOk(['delete', 'asyncactor', 'echo', '--timeout=120s']);
  await cmd.kubectlOk(['delete', 'secret', 'asya-rabbitmq']);
  await eventually('echo\'s pods to be gone', async () => (await cmd.kubectlOk(['get', 'pods', '-l', 'app=echo', '-o', 'name'])).trim() === '' || undefined, 120_000, 1_000);
}
