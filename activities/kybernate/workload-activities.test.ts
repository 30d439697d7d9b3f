import { describe, expect, it } from 'vitest';
import type { KybernateWorkload } from '../../api/kybernate/types.ts';
import { validateKybernateWorkload } from '../../api/kybernate/validate.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { idleModeOf, lastSuspendNumber, suspendCheckpoint, wantsGpu } from './create-workload-activities.ts';

function workload(spec: Record<string, unknown> = {}): KybernateWorkload {
  const result = validateKybernateWorkload({
    apiVersion: 'kybernate.io/v1alpha1',
    kind: 'KybernateWorkload',
    metadata: { name: 'llm', namespace: 'team-a', uid: 'u-1' },
    spec: { template: { spec: { containers: [{ name: 'model', image: 'my-llm:v1' }] } }, ...spec },
  });
  if (!result.valid) throw new Error(result.message);
  return { ...result.workload, metadata: { ...result.workload.metadata, uid: 'u-1' } };
}

describe('idleModeOf', () => {
  it('checkpoints when suspend is enabled (the default), goes cold with scaleToZero alone, else never', () => {
    expect(idleModeOf(workload().spec)).toBe('checkpoint');
    expect(idleModeOf(workload({ suspend: { enabled: false }, scaleToZero: { enabled: true } }).spec)).toBe('cold');
    expect(idleModeOf(workload({ suspend: { enabled: false }, scaleToZero: { enabled: true, minReplicas: 1 } }).spec)).toBe('never');
    expect(idleModeOf(workload({ suspend: { enabled: false } }).spec)).toBe('never');
  });
});

describe('suspendCheckpoint', () => {
  it('checkpoints the workload pod, the task exiting with the dump, owned and labelled by the workload, in its storage', () => {
    const w = workload({ suspend: { storage: { type: 'registry', image: 'registry.example.com/cp/llm:1' } } });
    expect(suspendCheckpoint(w, 'llm-suspend-3', 'llm')).toEqual({
      apiVersion: 'kybernate.io/v1alpha1',
      kind: 'KybernateCheckpoint',
      metadata: {
        name: 'llm-suspend-3',
        namespace: 'team-a',
        labels: { 'kybernate.io/workload': 'llm' },
        ownerReferences: [{ apiVersion: 'kybernate.io/v1alpha1', kind: 'KybernateWorkload', name: 'llm', uid: 'u-1', controller: true, blockOwnerDeletion: true }],
      },
      spec: { podName: 'llm', leaveRunning: false, timeout: 300, storage: { type: 'registry', image: 'registry.example.com/cp/llm:1' }, gpu: { enabled: false } },
    });
  });

  it('asks for the GPU plugin when a container requests an NVIDIA GPU', () => {
    expect(wantsGpu({ spec: { containers: [{ name: 'm', resources: { limits: { 'nvidia.com/gpu': '1' } } }] } })).toBe(true);
    expect(wantsGpu({ spec: { containers: [{ name: 'm', resources: { requests: { cpu: '1' } } }] } })).toBe(false);
    expect(wantsGpu({})).toBe(false);
  });
});

describe('lastSuspendNumber', () => {
  it('is the highest n of <workload>-suspend-<n>, ignoring other names', () => {
    const cps = ['llm-suspend-2', 'llm-suspend-10', 'llm-suspend-x', 'other-suspend-50', 'llm-suspend-'].map((name) => ({ metadata: { name } }) as AnyObject);
    expect(lastSuspendNumber(cps, 'llm')).toBe(10);
    expect(lastSuspendNumber([], 'llm')).toBe(0);
  });
});
