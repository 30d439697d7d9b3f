import { describe, expect, it } from 'vitest';
import { restore, workload } from '../../api/kybernate/testing.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { renderRestorePod, renderWorkloadPod } from './render.ts';

const IMAGE = 'containerd.io/checkpoint/4f2a:1733227215';

/** The checkpointed pod as the API server hands it out, with what a new pod must not carry over. */
function sourcePod(): AnyObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'gpu-inference', namespace: 'default', uid: 'u', labels: { app: 'llm' } },
    spec: {
      nodeName: 'gpu-node-1',
      runtimeClassName: 'nvidia',
      affinity: { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] }, nodeAffinity: { x: 1 } },
      containers: [
        { name: 'sidecar', image: 'envoy:1' },
        { name: 'model', image: 'my-llm:v1', resources: { limits: { 'nvidia.com/gpu': '2' } } },
      ],
      ephemeralContainers: [{ name: 'debug', image: 'busybox' }],
      volumes: [{ name: 'cache', emptyDir: {} }],
    },
    status: { phase: 'Running' },
  };
}

const ownerOf = (kind: string, name: string, uid: string) => [{ apiVersion: 'kybernate.io/v1alpha1', kind, name, uid, controller: true, blockOwnerDeletion: true }];

describe('renderRestorePod', () => {
  it("the seed's restore from the checkpointed pod: its spec, the restore-from annotation, targetPod's name, node selector and resources, owned", () => {
    const pod = renderRestorePod(restore(), { checkpointImage: IMAGE, pod: sourcePod(), containerName: 'model', nodeName: 'gpu-node-1' });
    expect(pod).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'gpu-inference-restored',
        namespace: 'default',
        labels: { 'kybernate.io/restore': 'my-gpu-restore' },
        annotations: { 'kybernate.io/restore-from': IMAGE },
        ownerReferences: ownerOf('KybernateRestore', 'my-gpu-restore', '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d'),
      },
      spec: {
        affinity: { nodeAffinity: { x: 1 }, podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] } },
        containers: [
          { name: 'sidecar', image: 'envoy:1' },
          { name: 'model', image: 'my-llm:v1', resources: { limits: { 'nvidia.com/gpu': '1' } } },
        ],
        // targetPod.nodeSelector wins over the checkpoint's node.
        nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-2' },
        runtimeClassName: 'nvidia',
        volumes: [{ name: 'cache', emptyDir: {} }],
      },
    });
  });

  it('without targetPod: <restore>-restored, pinned to the node that holds the checkpoint, the original resources', () => {
    const pod = renderRestorePod(restore((s) => delete s.targetPod), { checkpointImage: IMAGE, pod: sourcePod(), containerName: 'model', nodeName: 'gpu-node-1' });
    expect(pod.metadata?.name).toBe('my-gpu-restore-restored');
    const spec = pod.spec as Record<string, unknown>;
    expect(spec.nodeSelector).toBeUndefined();
    expect(spec.affinity).toEqual({
      podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [] },
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-node-1'] }] }] } },
    });
    expect((spec.containers as unknown[])[1]).toEqual({ name: 'model', image: 'my-llm:v1', resources: { limits: { 'nvidia.com/gpu': '2' } } });
  });

  it('drops what a new pod cannot carry over: nodeName, ephemeral containers, status, the original labels', () => {
    const pod = renderRestorePod(restore(), { checkpointImage: IMAGE, pod: sourcePod() });
    expect(pod.spec).not.toHaveProperty('nodeName');
    expect(pod.spec).not.toHaveProperty('ephemeralContainers');
    expect(pod).not.toHaveProperty('status');
    expect(pod.metadata?.labels).toEqual({ 'kybernate.io/restore': 'my-gpu-restore' });
  });

  it('resources go to the first container when the checkpoint names none (or one the pod lacks)', () => {
    for (const containerName of [undefined, 'gone']) {
      const pod = renderRestorePod(restore(), { checkpointImage: IMAGE, pod: sourcePod(), containerName });
      expect(((pod.spec as Record<string, unknown>).containers as Record<string, unknown>[]).map((c) => c.resources)).toEqual([{ limits: { 'nvidia.com/gpu': '1' } }, { limits: { 'nvidia.com/gpu': '2' } }]);
    }
  });

  it('without the checkpointed pod: one container running the checkpoint image, named like the checkpointed one', () => {
    const pod = renderRestorePod(restore((s) => ((s.checkpointImage = IMAGE), delete s.checkpointRef, delete s.targetPod)), { checkpointImage: IMAGE, containerName: 'model' });
    expect(pod.spec).toEqual({ containers: [{ name: 'model', image: IMAGE }] });
    expect(renderRestorePod(restore(), { checkpointImage: IMAGE }).spec).toEqual({
      containers: [{ name: 'restored', image: IMAGE, resources: { limits: { 'nvidia.com/gpu': '1' } } }],
      nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-2' },
    });
  });

  it('offline (no uid, no namespace): the reference without a uid, no namespace', () => {
    const pod = renderRestorePod(restore(() => {}, { uid: null, namespace: null }), { checkpointImage: IMAGE });
    expect(pod.metadata?.namespace).toBeUndefined();
    expect(pod.metadata?.ownerReferences).toEqual([{ apiVersion: 'kybernate.io/v1alpha1', kind: 'KybernateRestore', name: 'my-gpu-restore', controller: true, blockOwnerDeletion: true }]);
  });

  it('is deterministic whatever the key order of the pod it copies', () => {
    const reversed = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(reversed) : typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)])) : value;
    const a = JSON.stringify(renderRestorePod(restore(), { checkpointImage: IMAGE, pod: sourcePod() }));
    const b = JSON.stringify(renderRestorePod(restore(), { checkpointImage: IMAGE, pod: reversed(sourcePod()) as AnyObject }));
    expect(b).toBe(a);
  });
});

describe('renderWorkloadPod', () => {
  it("the seed's workload: a pod named after it, from the template, labelled and owned", () => {
    expect(renderWorkloadPod(workload())).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'llm-inference',
        namespace: 'default',
        labels: { 'kybernate.io/workload': 'llm-inference' },
        ownerReferences: ownerOf('KybernateWorkload', 'llm-inference', 'c0ffee00-1234-4abc-9def-0123456789ab'),
      },
      spec: { containers: [{ image: 'my-llm:v1', name: 'model', resources: { limits: { 'nvidia.com/gpu': '1' } } }], runtimeClassName: 'nvidia' },
    });
  });

  it("keeps the template's labels and annotations, ours last", () => {
    const pod = renderWorkloadPod(
      workload((s) => ((s.template as Record<string, unknown>).metadata = { labels: { app: 'llm', 'kybernate.io/workload': 'spoofed' }, annotations: { note: 'x' } })),
    );
    expect(pod.metadata?.labels).toEqual({ app: 'llm', 'kybernate.io/workload': 'llm-inference' });
    expect(pod.metadata?.annotations).toEqual({ note: 'x' });
  });

  it('waking from a checkpoint: the same pod, annotated kybernate.io/restore-from', () => {
    const fresh = renderWorkloadPod(workload());
    const woken = renderWorkloadPod(workload(), { restoreFrom: IMAGE });
    expect(woken.metadata?.annotations).toEqual({ 'kybernate.io/restore-from': IMAGE });
    expect({ ...woken, metadata: { ...woken.metadata, annotations: undefined } }).toEqual({ ...fresh, metadata: { ...fresh.metadata, annotations: undefined } });
  });

  it("waking from a checkpoint kept in a node's containerd: pinned to that node, unless the template binds the pod itself", () => {
    const woken = renderWorkloadPod(workload(), { restoreFrom: IMAGE, nodeName: 'gpu-node-1' });
    expect((woken.spec as Record<string, unknown>).affinity).toEqual({
      nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['gpu-node-1'] }] }] } },
    });
    // A fresh start is scheduled anywhere; a template's own nodeName stays as it is.
    expect((renderWorkloadPod(workload(), { nodeName: 'gpu-node-1' }).spec as Record<string, unknown>).affinity).toBeUndefined();
    const bound = renderWorkloadPod(workload((s) => (((s.template as Record<string, unknown>).spec as Record<string, unknown>).nodeName = 'n2')), { restoreFrom: IMAGE, nodeName: 'gpu-node-1' });
    expect(bound.spec).toMatchObject({ nodeName: 'n2' });
    expect((bound.spec as Record<string, unknown>).affinity).toBeUndefined();
  });
});
