import { describe, expect, it } from 'vitest';
import type { ModelDeployment } from '../api/types.ts';
import { deploymentSamples, phaseOf } from './deployment-samples.ts';

const md = (namespace: string, name: string, status?: ModelDeployment['status'], deleting = false): ModelDeployment => ({
  metadata: { namespace, name, ...(deleting ? { deletionTimestamp: '2025-01-01T00:00:00Z' } : {}) },
  spec: {} as ModelDeployment['spec'],
  ...(status ? { status } : {}),
});

describe('phaseOf', () => {
  it('takes status.phase, counts an unreconciled object as Pending and a deleting one as Terminating', () => {
    expect(phaseOf(md('a', 'x', { phase: 'Running' }))).toBe('Running');
    expect(phaseOf(md('a', 'x'))).toBe('Pending');
    expect(phaseOf(md('a', 'x', { phase: 'Running' }, true))).toBe('Terminating');
  });
});

describe('deploymentSamples', () => {
  const samples = deploymentSamples([
    md('team-b', 'one', { phase: 'Running', replicas: { desired: 2, ready: 2, available: 2 } }),
    md('team-a', 'two', { phase: 'Failed', replicas: { desired: 1, ready: 0 } }),
    md('team-a', 'three', { phase: 'Failed' }),
    md('team-a', 'four'),
  ]);

  it('counts every phase of every namespace, zeros included, namespaces sorted', () => {
    expect(samples.totals.filter((t) => t.namespace === 'team-a')).toEqual([
      { namespace: 'team-a', phase: 'Pending', count: 1 },
      { namespace: 'team-a', phase: 'Deploying', count: 0 },
      { namespace: 'team-a', phase: 'Running', count: 0 },
      { namespace: 'team-a', phase: 'Failed', count: 2 },
      { namespace: 'team-a', phase: 'Terminating', count: 0 },
    ]);
    expect(samples.totals.map((t) => t.namespace)[0]).toBe('team-a');
    expect(samples.totals.find((t) => t.namespace === 'team-b' && t.phase === 'Running')?.count).toBe(1);
  });

  it('reports the replica states the provider reported, and nothing for the others', () => {
    expect(samples.replicas).toEqual([
      { name: 'one', namespace: 'team-b', state: 'desired', value: 2 },
      { name: 'one', namespace: 'team-b', state: 'ready', value: 2 },
      { name: 'one', namespace: 'team-b', state: 'available', value: 2 },
      { name: 'two', namespace: 'team-a', state: 'desired', value: 1 },
      { name: 'two', namespace: 'team-a', state: 'ready', value: 0 },
    ]);
  });

  it('sets exactly one phase to 1 per deployment', () => {
    const two = samples.phases.filter((p) => p.name === 'two');
    expect(two).toHaveLength(5);
    expect(two.filter((p) => p.value === 1)).toEqual([{ name: 'two', namespace: 'team-a', phase: 'Failed', value: 1 }]);
  });

  it('reads a status from the cache field by field: an unknown phase counts as Pending, a count that is no number is left out', () => {
    const odd = { metadata: { namespace: 'team-b', name: 'odd' }, status: { phase: 'Dancing', replicas: { desired: '2', ready: 1 } } };
    const s = deploymentSamples([odd, { metadata: { namespace: 'team-b', name: 'bare' }, status: 'broken' }]);
    expect(s.totals.filter((t) => t.count > 0)).toEqual([{ namespace: 'team-b', phase: 'Pending', count: 2 }]);
    expect(s.replicas).toEqual([{ name: 'odd', namespace: 'team-b', state: 'ready', value: 1 }]);
  });

  it('is empty without deployments', () => {
    expect(deploymentSamples([])).toEqual({ totals: [], replicas: [], phases: [] });
  });
});
