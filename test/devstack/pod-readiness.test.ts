// The simulated kubelet on the real local stack: labelled pods become Running and Ready (or Failed, as
// their annotation says), unlabelled ones are left alone, and a recreated pod is a new pod to run.
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPodReadinessSimulator, simulatedPodIp } from '../../devstack/simulators/pod-readiness.ts';
import { OUTCOME_ANNOTATION, type Simulator } from '../../devstack/simulators/simulator.ts';
import { eventually, testKube, type TestKube } from '../support/env.ts';

const LABEL = 'flame.xflops.io/cluster';

describe('pod-readiness simulator', () => {
  let kube: TestKube;
  let simulator: Simulator;
  beforeAll(async () => {
    kube = await testKube('pod-ready');
    simulator = await startPodReadinessSimulator(kube.kc, { namespaces: [kube.namespace], readyAfterMs: 200 });
  });
  afterAll(async () => {
    await simulator?.stop();
    await kube?.cleanup();
  });

  const createPod = (name: string, opts: { labelled?: boolean; outcome?: string } = {}) =>
    kube.core.createNamespacedPod({
      namespace: kube.namespace,
      body: {
        metadata: {
          name,
          labels: opts.labelled === false ? { app: 'other' } : { [LABEL]: 'demo' },
          annotations: opts.outcome ? { [OUTCOME_ANNOTATION]: opts.outcome } : undefined,
        },
        spec: { containers: [{ name: 'main', image: 'xflops/flame:test' }, { name: 'side', image: 'busybox:1' }] },
      },
    });
  const readPod = (name: string) => kube.core.readNamespacedPod({ name, namespace: kube.namespace });
  const isReady = (pod: V1Pod) => pod.status?.phase === 'Running' && pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True');
  const waitFor = (what: string, name: string, test: (pod: V1Pod) => boolean | undefined) =>
    eventually(what, async () => {
      const pod = await readPod(name);
      return test(pod) ? pod : undefined;
    }, 30_000);

  it('makes labelled pods Running and Ready with a pod IP and running containers', async () => {
    const created = await createPod('ready-1');
    const pod = await waitFor('ready-1 to be ready', 'ready-1', isReady);
    expect(pod.status?.podIP).toBe(simulatedPodIp(created.metadata!.uid!));
    expect(pod.status?.podIP).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(pod.status?.startTime).toBeTruthy();
    for (const type of ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready']) {
      expect(pod.status?.conditions?.find((c) => c.type === type)?.status).toBe('True');
    }
    expect(pod.status?.containerStatuses?.map((c) => [c.name, c.image, c.ready, !!c.state?.running])).toEqual([
      ['main', 'xflops/flame:test', true, true],
      ['side', 'busybox:1', true, true],
    ]);
  });

  it('leaves pods without the label alone', async () => {
    await createPod('unlabelled', { labelled: false });
    // A labelled pod created after it being ready shows the simulator has had its chance at both.
    await createPod('marker');
    await waitFor('marker to be ready', 'marker', isReady);
    const pod = await readPod('unlabelled');
    expect(pod.status?.phase).toBe('Pending');
    expect(pod.status?.podIP).toBeUndefined();
  });

  it('fails a pod annotated fail: <message>, and holds one annotated hold', async () => {
    await createPod('doomed', { outcome: 'fail: boom' });
    await createPod('held', { outcome: 'hold' });
    const pod = await waitFor('doomed to fail', 'doomed', (p) => p.status?.phase === 'Failed');
    expect(pod.status?.reason).toBe('Simulated');
    expect(pod.status?.message).toBe('boom');
    expect(pod.status?.containerStatuses?.every((c) => c.state?.terminated && !c.ready)).toBe(true);
    await createPod('held-marker');
    await waitFor('held-marker to be ready', 'held-marker', isReady);
    expect((await readPod('held')).status?.phase).toBe('Pending');
  });

  it('fails a running pod that is annotated fail later', async () => {
    await createPod('later');
    await waitFor('later to be ready', 'later', isReady);
    await kube.core.patchNamespacedPod({
      name: 'later',
      namespace: kube.namespace,
      body: [{ op: 'add', path: '/metadata/annotations', value: { [OUTCOME_ANNOTATION]: 'fail: crashed' } }],
    });
    const pod = await waitFor('later to fail', 'later', (p) => p.status?.phase === 'Failed');
    expect(pod.status?.message).toBe('crashed');
  });

  it('runs a pod deleted and recreated under the same name again', async () => {
    const first = await createPod('reborn');
    await waitFor('reborn to be ready', 'reborn', isReady);
    await kube.core.deleteNamespacedPod({ name: 'reborn', namespace: kube.namespace });
    // Unbound pods are deleted at once, so the name is free again as soon as the delete returns.
    await eventually('reborn to be gone', async () => (await kube.core.listNamespacedPod({ namespace: kube.namespace })).items.every((p) => p.metadata?.name !== 'reborn'));
    const second = await createPod('reborn');
    expect(second.metadata?.uid).not.toBe(first.metadata?.uid);
    expect(second.status?.phase).toBe('Pending');
    const pod = await waitFor('reborn (again) to be ready', 'reborn', (p) => p.metadata?.uid === second.metadata?.uid && isReady(p));
    expect(pod.status?.podIP).toBe(simulatedPodIp(second.metadata!.uid!));
  });
});
