import { describe, expect, it } from 'vitest';
import { CHECKPOINT_KIND, RESTORE_KIND, WORKLOAD_KIND } from './constants.ts';
import { checkpoint, checkpointSpec, kybernateObject, restore, restoreSpec, workload, workloadSpec } from './testing.ts';
import { validateKybernateCheckpoint, validateKybernateRestore, validateKybernateWorkload } from './validate.ts';

const errorsOf = (result: { valid: true } | { valid: false; errors: unknown[] }) => (result.valid ? [] : result.errors);

describe('validateKybernateCheckpoint', () => {
  it("fills in the seed's defaults: leaveRunning, timeout 300, containerd storage, no GPU; containerName stays unset", () => {
    const result = validateKybernateCheckpoint(kybernateObject(CHECKPOINT_KIND, { podName: 'counter' }));
    expect(result.valid && result.checkpoint.spec).toEqual({ podName: 'counter', leaveRunning: true, timeout: 300, storage: { type: 'containerd' }, gpu: { enabled: false } });
  });

  it("keeps the seed's example as given", () => {
    expect(checkpoint().spec).toEqual(checkpointSpec());
  });

  it('names every problem with its field', () => {
    const result = validateKybernateCheckpoint(kybernateObject(CHECKPOINT_KIND, { timeout: 0, storage: { type: 'registry' }, gpu: { pluginPath: 'criu' } }));
    expect(errorsOf(result)).toEqual([
      { field: 'spec.podName', message: 'is required' },
      { field: 'spec.timeout', message: 'must be at least 1, got 0' },
      { field: 'spec.storage.image', message: "'storage.image' is required when 'storage.type' is registry" },
      { field: 'spec.gpu.pluginPath', message: 'must be an absolute path, got "criu"' },
    ]);
    expect(result.valid ? '' : result.message).toBe(
      "spec.podName: is required; spec.timeout: must be at least 1, got 0; spec.storage.image: 'storage.image' is required when 'storage.type' is registry; spec.gpu.pluginPath: must be an absolute path, got \"criu\"",
    );
  });

  it('refuses another kind, API version or a missing spec', () => {
    expect(errorsOf(validateKybernateCheckpoint({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } }))).toEqual([
      { field: 'apiVersion', message: 'must be kybernate.io/v1alpha1, got "v1"' },
      { field: 'kind', message: 'must be KybernateCheckpoint, got "Pod"' },
      { field: 'spec', message: 'is required' },
    ]);
    expect(errorsOf(validateKybernateCheckpoint('x'))).toEqual([{ field: 'object', message: 'must be a KybernateCheckpoint object, got string' }]);
  });

  it('reads a stored status leniently: malformed fields are dropped, never an error', () => {
    const status = { phase: 'Completed', checkpointRef: 'containerd.io/checkpoint/abc:1', checkpointSize: '2.2Gi', nodeName: 7, observedGeneration: -1, conditions: [{ type: 'Ready', status: 'True' }, { type: 'Bad' }] };
    expect(checkpoint(() => {}, { status }).status).toEqual({
      phase: 'Completed',
      checkpointRef: 'containerd.io/checkpoint/abc:1',
      checkpointSize: '2.2Gi',
      conditions: [{ type: 'Ready', status: 'True' }],
    });
    expect(checkpoint(() => {}, { status: { phase: 'Done' } }).status).toEqual({});
  });

  it('keeps the metadata the workflow needs (finalizers, deletion) and drops the rest', () => {
    const object = kybernateObject(CHECKPOINT_KIND, checkpointSpec());
    Object.assign(object.metadata as object, { finalizers: ['kybernate.io/artifacts'], deletionTimestamp: '2025-12-03T12:00:00Z', managedFields: [{}] });
    const result = validateKybernateCheckpoint(object);
    expect(result.valid && result.checkpoint.metadata).toEqual({
      name: 'my-gpu-checkpoint',
      namespace: 'default',
      uid: '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b',
      generation: 1,
      finalizers: ['kybernate.io/artifacts'],
      deletionTimestamp: '2025-12-03T12:00:00Z',
    });
  });
});

describe('validateKybernateRestore', () => {
  it('fills in timeout 600 and gpu off; targetPod stays absent when not given', () => {
    const result = validateKybernateRestore(kybernateObject(RESTORE_KIND, { checkpointImage: 'containerd.io/checkpoint/abc:1' }));
    expect(result.valid && result.restore.spec).toEqual({ checkpointImage: 'containerd.io/checkpoint/abc:1', timeout: 600, gpu: { enabled: false } });
  });

  it("keeps the seed's example as given", () => {
    expect(restore().spec).toEqual(restoreSpec());
  });

  it('says which one of checkpointRef and checkpointImage', () => {
    expect(errorsOf(validateKybernateRestore(kybernateObject(RESTORE_KIND, {})))).toEqual([{ field: 'spec', message: "Exactly one of 'checkpointRef' or 'checkpointImage' must be set" }]);
  });

  it('refuses a name too long for the label on its pod', () => {
    expect(errorsOf(validateKybernateRestore(kybernateObject(RESTORE_KIND, restoreSpec(), { name: 'r'.repeat(64) })))).toEqual([
      { field: 'metadata.name', message: 'metadata.name must be at most 63 characters, since it is the value of the kybernate.io/restore label on the restore pod' },
    ]);
  });

  it('checks node selector values and resource quantities', () => {
    const spec = { checkpointRef: 'c', targetPod: { nodeSelector: { zone: 'a b' }, resources: { limits: { cpu: 'lots' } } } };
    expect(errorsOf(validateKybernateRestore(kybernateObject(RESTORE_KIND, spec)))).toEqual([
      { field: 'spec.targetPod.nodeSelector.zone', message: `must be a label value (at most 63 letters, digits, '-', '_' and '.', starting and ending with a letter or digit), got "a b"` },
      { field: 'spec.targetPod.resources.limits.cpu', message: 'must be a non-negative quantity such as "500m", "2Gi" or 4, got "lots"' },
    ]);
  });

  it('reads counterValue, the debug field', () => {
    expect(restore(() => {}, { status: { phase: 'Running', restoredPodName: 'p', counterValue: 45 } }).status).toEqual({ phase: 'Running', restoredPodName: 'p', counterValue: 45 });
  });
});

describe('validateKybernateWorkload', () => {
  it('fills in every default: suspend after 5m, no scale-to-zero, the activator on 8080 with /health and 30s', () => {
    const template = (workloadSpec() as { template: unknown }).template;
    const result = validateKybernateWorkload(kybernateObject(WORKLOAD_KIND, { template }));
    expect(result.valid && result.workload.spec).toEqual({
      template,
      suspend: { enabled: true, idleTimeout: '5m', storage: { type: 'containerd' } },
      scaleToZero: { enabled: false, minReplicas: 0, maxReplicas: 5 },
      activator: { enabled: true, port: 8080, healthPath: '/health', queueTimeout: '30s' },
    });
  });

  it("keeps the seed's example as given", () => {
    expect(workload().spec).toEqual(workloadSpec());
  });

  it('refuses a template no pod can be made from, naming the container', () => {
    const spec = { template: { spec: { containers: [{ name: 'model' }, { image: 'x' }, { name: 'model', image: 'y' }] } } };
    expect(errorsOf(validateKybernateWorkload(kybernateObject(WORKLOAD_KIND, spec)))).toEqual([
      { field: 'spec.template.spec.containers[0].image', message: 'required: every container has an image' },
      { field: 'spec.template.spec.containers[1].name', message: 'required: every container has a name' },
      { field: 'spec.template.spec.containers[2].name', message: 'duplicate container name "model"' },
    ]);
  });

  it('says what a duration looks like', () => {
    const result = validateKybernateWorkload(kybernateObject(WORKLOAD_KIND, { ...workloadSpec(), suspend: { idleTimeout: '5 min' } }));
    expect(errorsOf(result)).toEqual([
      { field: 'spec.suspend.idleTimeout', message: 'must be a positive duration such as "30s", "5m" or "1h30m" (whole numbers; units ms, s, m, h), got "5 min"' },
    ]);
  });

  it('reads a stored status, SuspendDegraded condition included', () => {
    const status = { phase: 'Suspended', activeReplicas: 0, suspendedCheckpoints: 2, lastActivityTime: '2025-12-03T12:00:00Z', conditions: [{ type: 'SuspendDegraded', status: 'True', reason: 'CheckpointFailed' }] };
    expect(workload(() => {}, { status }).status).toEqual(status);
  });
});
