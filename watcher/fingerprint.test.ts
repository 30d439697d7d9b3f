import { describe, expect, it } from 'vitest';
import { deploymentFingerprint, providerConfigFingerprint, childFingerprint, specFingerprint } from './fingerprint.ts';

describe('fingerprints decide which watch events wake a workflow', () => {
  const md = { metadata: { generation: 1, labels: { a: '1' }, annotations: {}, finalizers: ['kubeairunway.ai/finalizer'], resourceVersion: '5' }, status: { phase: 'Running' } };

  it('ignores a ModelDeployment status write, our finalizer and the resourceVersion', () => {
    const after = { ...md, metadata: { ...md.metadata, resourceVersion: '6', finalizers: [] }, status: { phase: 'Deploying' } };
    expect(deploymentFingerprint(after)).toBe(deploymentFingerprint(md));
  });

  it('wakes on a spec change, deletion, pause and labels', () => {
    const base = deploymentFingerprint(md);
    expect(deploymentFingerprint({ ...md, metadata: { ...md.metadata, generation: 2 } })).not.toBe(base);
    expect(deploymentFingerprint({ ...md, metadata: { ...md.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } })).not.toBe(base);
    expect(deploymentFingerprint({ ...md, metadata: { ...md.metadata, annotations: { 'kubeairunway.ai/reconcile-paused': 'true' } } })).not.toBe(base);
    expect(deploymentFingerprint({ ...md, metadata: { ...md.metadata, labels: { a: '2' } } })).not.toBe(base);
  });

  it('ignores provider heartbeats but not readiness or CRD version', () => {
    const ipc = { metadata: { generation: 1 }, status: { ready: true, lastHeartbeat: '2026-01-01T00:00:00Z', upstreamCRDVersion: 'ray.io/v1' } };
    const base = providerConfigFingerprint(ipc);
    expect(providerConfigFingerprint({ ...ipc, status: { ...ipc.status, lastHeartbeat: '2026-01-01T00:00:30Z' } })).toBe(base);
    expect(providerConfigFingerprint({ ...ipc, status: { ...ipc.status, ready: false } })).not.toBe(base);
    expect(providerConfigFingerprint({ ...ipc, status: { ...ipc.status, upstreamCRDVersion: '' } })).not.toBe(base);
  });

  it('ignores our bookkeeping annotations on provider resources but not operator status or edits', () => {
    const res = { metadata: { generation: 3, annotations: {}, labels: { l: '1' } }, status: { state: 'deploying' } };
    const base = childFingerprint(res);
    expect(childFingerprint({ ...res, metadata: { ...res.metadata, annotations: { 'kubeairunway.ai/applied-state': 'x' } } })).toBe(base);
    expect(childFingerprint({ ...res, status: { state: 'successful' } })).not.toBe(base);
    expect(childFingerprint({ ...res, metadata: { ...res.metadata, generation: 4 } })).not.toBe(base);
  });

  it("wakes the other kinds on spec edits, pausing and deletion, not on their status or labels", () => {
    const base = { metadata: { name: 'a', generation: 1, resourceVersion: '1' }, status: { phase: 'Running' } };
    const same = specFingerprint(base);
    expect(specFingerprint({ ...base, metadata: { ...base.metadata, resourceVersion: '2', labels: { x: 'y' } }, status: { phase: 'Failed' } })).toBe(same);
    expect(specFingerprint({ ...base, metadata: { ...base.metadata, generation: 2 } })).not.toBe(same);
    expect(specFingerprint({ ...base, metadata: { ...base.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } })).not.toBe(same);
    expect(specFingerprint({ ...base, metadata: { ...base.metadata, annotations: { 'kubeairunway.ai/reconcile-paused': 'true' } } })).not.toBe(same);
  });
});
