// A real node (issue 28, the stretch): the Kybernate node container (trixie's containerd 1.7 with its CRI
// plugin, runc, CRIU 4) with a kubelet built from the Go module proxy inside it, registered with the
// shared stack's API server (devstack/kubelet-node.ts; what it takes here: docs/kubelet.md). Nothing plays
// the kubelet: a pod bound to the node is started by the kubelet from an image imported into the node's
// containerd (busybox-static, made by us), its status is the kubelet's, and Kybernate checkpoints its
// container through the node worker as on any node. Opt-in: it runs where the kubelet is built
// (`npm run tools -- --only kubelet`) and a private Docker engine can start; otherwise it skips, saying why.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContainerdClient } from '../../containerd/client.ts';
import { containerIdFromStatus, KUBERNETES_NAMESPACE } from '../../containerd/container-id.ts';
import { startDocker, type DockerEngine } from '../../devstack/docker.ts';
import { writeKubeconfig } from '../../devstack/kubeconfig.ts';
import { BUSYBOX_IMAGE, criImageName, kubeletNodeUnavailable, startKubeletNode, type KubeletNode } from '../../devstack/kubelet-node.ts';
import { KUBERNETES_VERSION } from '../../tools/versions.ts';
import { startTestProduct } from '../support/controller.ts';
import type { Product } from '../../worker/product.ts';
import { eventually, kubeConfig, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { checkpointExample, createCheckpoint, deleteCheckpoint, finished, waitCheckpointGone, waitForCheckpoint } from '../support/kybernate.ts';
import { hostFootprint, type Footprint } from '../support/host-footprint.ts';

const unavailable = kubeletNodeUnavailable();
const RUNS_DIR = join(tmpdir(), 'kubeairunway-kubelet');
const say = (line: string) => process.stdout.write(`[kubelet-node] ${line}\n`);

describe.skipIf(unavailable !== undefined)(`a real kubelet ${KUBERNETES_VERSION} in the node container${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let engine: DockerEngine;
  let node: KubeletNode;
  let kube: TestKube;
  let ctl: Product;
  let client: ContainerdClient;
  let dir: string;
  let before: Footprint;

  beforeAll(async () => {
    mkdirSync(RUNS_DIR, { recursive: true });
    dir = mkdtempSync(join(RUNS_DIR, 'node-'));
    before = hostFootprint(dir);
    // The kubelet's kubeconfig: the stack's server and token, its CA copied beside (only the state folder is mounted into the node).
    const kc = kubeConfig();
    const caFile = join(dir, 'ca.crt');
    copyFileSync(kc.getCurrentCluster()!.caFile!, caFile);
    const kubeconfigPath = join(dir, 'kubelet.kubeconfig');
    writeKubeconfig(kubeconfigPath, { server: kc.getCurrentCluster()!.server, token: kc.getCurrentUser()!.token!, caFile });
    engine = await startDocker({ log: say });
    node = await startKubeletNode(engine, dir, { kubeconfigPath, log: say });
    await node.importImages([BUSYBOX_IMAGE]);
    client = new ContainerdClient({ socket: node.socket, namespace: KUBERNETES_NAMESPACE });
    kube = await testKube('kubelet');
    // No simulators: the kubelet writes the pods' status.
    ctl = await startTestProduct(kube.namespace, uniqueName('kar'), { flags: { node: true, nodeName: node.nodeName, containerdSocket: node.socket } });
  }, 20 * 60_000);

  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
    client?.close();
    await node?.stop();
    if (node) await kube?.core.deleteNode({ name: node.nodeName }).catch(() => undefined);
    await engine?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A busybox counter pod on this node; its count goes to `<dir>/<name>/count` through a hostPath volume. */
  async function counterPod(name: string): Promise<{ dataDir: string; count(): number }> {
    const dataDir = join(dir, name);
    mkdirSync(dataDir, { recursive: true });
    const pod: V1Pod = {
      metadata: { name, namespace: kube.namespace },
      spec: {
        nodeName: node.nodeName,
        // The node shares the host's network; a pod network would need a bridge on the host (docs/kubelet.md).
        hostNetwork: true,
        terminationGracePeriodSeconds: 1,
        containers: [
          {
            name: 'counter',
            image: criImageName(BUSYBOX_IMAGE),
            imagePullPolicy: 'Never',
            command: ['/bin/sh', '-c', 'i=0; while true; do i=$((i+1)); echo $i > /data/count; sleep 1; done'],
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
          },
        ],
        volumes: [{ name: 'data', hostPath: { path: dataDir, type: 'Directory' } }],
      },
    };
    await kube.core.createNamespacedPod({ namespace: kube.namespace, body: pod });
    const count = () => {
      try {
        return Number(readFileSync(join(dataDir, 'count'), 'utf8').trim()) || 0;
      } catch {
        return 0;
      }
    };
    return { dataDir, count };
  }

  const runningPod = (name: string) =>
    eventually(`pod ${name} Running with a started container`, async () => {
      const pod = await kube.core.readNamespacedPod({ name, namespace: kube.namespace });
      const status = pod.status?.containerStatuses?.[0];
      return pod.status?.phase === 'Running' && status?.state?.running && status.containerID ? pod : undefined;
    }, 90_000, 500);

  it('leaves the machine\'s own network alone while it runs on it: its firewall rules, interfaces and routes as before the node started', async () => {
    // The kubelet makes its chains (KUBE-FIREWALL, KUBE-KUBELET-CANARY, KUBE-IPTABLES-HINT) when it starts,
    // unless told not to: by now it has been running for the beforeAll's image import and product start.
    await eventually('the node Ready', async () => ((await kube.core.readNode({ name: node.nodeName })).status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'), 60_000, 500);
    const now = hostFootprint(dir);
    for (const kind of ['firewall', 'links', 'routes'] as const) expect(now[kind], kind).toEqual(before[kind]);
  });

  it('registers the node Ready, reporting kubelet and containerd versions of its own', async () => {
    const ready = await eventually('node Ready', async () => {
      const n = await kube.core.readNode({ name: node.nodeName });
      return n.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? n : undefined;
    }, 60_000, 500);
    expect(ready.status?.nodeInfo).toMatchObject({ kubeletVersion: `v${KUBERNETES_VERSION}`, containerRuntimeVersion: expect.stringMatching(/^containerd:\/\/1\.7\./) });
    say(`node ${node.nodeName} Ready: kubelet ${ready.status?.nodeInfo?.kubeletVersion}, ${ready.status?.nodeInfo?.containerRuntimeVersion}, ${ready.status?.nodeInfo?.osImage}`);
  });

  it('starts a pod from an imported image: Running by the kubelet, its container a live task in the node\'s containerd, counting; deleting the pod removes it', async () => {
    const name = uniqueName('counter');
    const t0 = Date.now();
    const { count } = await counterPod(name);
    const pod = await runningPod(name);
    say(`pod ${name} Running ${((Date.now() - t0) / 1000).toFixed(1)}s after create`);
    expect(pod.status?.containerStatuses?.[0]?.image).toBe(criImageName(BUSYBOX_IMAGE));
    const id = containerIdFromStatus(pod.status!.containerStatuses![0]!.containerID!);
    expect(await client.findTask(id)).toMatchObject({ status: 'RUNNING' });
    const first = await eventually('a first count', async () => count() || undefined, 20_000, 200);
    await eventually(`count past ${first + 2}`, async () => count() > first + 2, 20_000, 200);

    await kube.core.deleteNamespacedPod({ name, namespace: kube.namespace });
    // The kubelet stops the container (1 s grace, then SIGKILL) and confirms the deletion.
    await eventually(`pod ${name} gone`, async () => !(await kube.core.listNamespacedPod({ namespace: kube.namespace })).items.some((p) => p.metadata?.name === name), 60_000, 500);
    expect(await client.findTask(id)).toBeUndefined();
  });

  it('a KybernateCheckpoint of the real pod\'s container completes with an image in the node\'s containerd; the pod runs on', async () => {
    const name = uniqueName('counter');
    const { count } = await counterPod(name);
    const pod = await runningPod(name);
    const id = containerIdFromStatus(pod.status!.containerStatuses![0]!.containerID!);
    await eventually('a first count', async () => count() || undefined, 20_000, 200);
    const cpName = uniqueName('kcp');
    await createCheckpoint(checkpointExample(kube.namespace, cpName, name, 'counter'));
    const cp = await waitForCheckpoint(kube.namespace, cpName, 'Completed or Failed', finished, 120_000);
    expect(cp.status).toMatchObject({ phase: 'Completed', nodeName: node.nodeName, containerID: id });
    const image = await client.getCheckpoint(cp.status!.checkpointRef!);
    expect(image).toBeDefined();
    say(`checkpoint of kubelet-run container ${id.slice(0, 12)}: ${cp.status?.checkpointRef} (${cp.status?.checkpointSize})`);
    // leaveRunning (the default): the kubelet's container runs on and counts on.
    const after = count();
    await eventually(`count past ${after + 2}`, async () => count() > after + 2, 20_000, 200);
    expect((await kube.core.readNamespacedPod({ name, namespace: kube.namespace })).status?.phase).toBe('Running');
    await deleteCheckpoint(kube.namespace, cpName);
    await waitCheckpointGone(kube.namespace, cpName);
    expect(await client.getCheckpoint(cp.status!.checkpointRef!)).toBeUndefined();
  });

  it('with leaveRunning: false the dump stops the container, and the kubelet, as on any node, starts it again (restartCount 1, counting from 1)', async () => {
    const name = uniqueName('counter');
    const { count } = await counterPod(name);
    const pod = await runningPod(name);
    const id = containerIdFromStatus(pod.status!.containerStatuses![0]!.containerID!);
    await eventually('a count of 3', async () => count() >= 3, 20_000, 200);
    const cpName = uniqueName('kcp');
    const spec = checkpointExample(kube.namespace, cpName, name, 'counter');
    spec.spec.leaveRunning = false;
    // The count sampled from before the dump on, ten times a second: the new container's count starting
    // over shows as a drop, however soon the kubelet restarts it (one read after the checkpoint Completed
    // once saw the new container's 1 already).
    const seen: number[] = [];
    const sampler = setInterval(() => {
      const c = count();
      if (c > 0 && c !== seen.at(-1)) seen.push(c);
    }, 100);
    try {
      await createCheckpoint(spec);
      const cp = await waitForCheckpoint(kube.namespace, cpName, 'Completed or Failed', finished, 120_000);
      expect(cp.status).toMatchObject({ phase: 'Completed', containerID: id });
      // restartPolicy Always: the kubelet sees the container exit and starts a new one, which counts from 1.
      const restarted = await eventually('the kubelet to start the container again', async () => {
        const p = await kube.core.readNamespacedPod({ name, namespace: kube.namespace });
        const status = p.status?.containerStatuses?.[0];
        return status?.restartCount === 1 && status.state?.running ? status : undefined;
      }, 60_000, 500);
      expect(restarted.containerID).not.toBe(`containerd://${id}`);
      // containerd's CRI deletes an exited container's task (the container record stays for the kubelet).
      expect(await client.findTask(id)).toBeUndefined();
      const drop = await eventually('the count to start over', async () => {
        const at = seen.findIndex((c, i) => i > 0 && c < seen[i - 1]!);
        return at > 0 ? { dumpedAt: seen[at - 1]!, then: seen[at]! } : undefined;
      }, 20_000, 100);
      expect(drop.then).toBeLessThanOrEqual(2);
      say(`leaveRunning: false: dumped at ${drop.dumpedAt}; the kubelet restarted the container (${restarted.containerID?.slice(0, 24)}…), counting from ${drop.then}`);
    } finally {
      clearInterval(sampler);
    }
    await deleteCheckpoint(kube.namespace, cpName);
    await waitCheckpointGone(kube.namespace, cpName);
  });
});
