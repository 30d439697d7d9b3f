import { describe, expect, it } from 'vitest';
import { mapDynamoStatus } from './status.ts';

function graph(status: Record<string, unknown> | undefined, name = 'llama-70b-pd'): Record<string, unknown> {
  return {
    apiVersion: 'nvidia.com/v1alpha1',
    kind: 'DynamoGraphDeployment',
    metadata: { name, namespace: 'default' },
    spec: {
      backendFramework: 'vllm',
      services: {
        Frontend: { componentType: 'frontend', replicas: 2 },
        VllmPrefillWorker: { componentType: 'worker', subComponentType: 'prefill', replicas: 2 },
        VllmDecodeWorker: { componentType: 'worker', subComponentType: 'decode', replicas: 4 },
      },
    },
    ...(status ? { status } : {}),
  };
}

describe('Dynamo status mapping (seed 001 §4.9 / seed 000 table)', () => {
  it('row 1: state successful → Running, no message; seed Example 3 replicas and endpoint', () => {
    expect(mapDynamoStatus(graph({ state: 'successful' }))).toEqual({
      phase: 'Running',
      replicas: { desired: 6, ready: 6 },
      endpoint: { service: 'llama-70b-pd-frontend', port: 8000 },
      conditions: [{ type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' }],
    });
  });

  it('row 2: state deploying → Deploying, no message extracted', () => {
    const status = mapDynamoStatus(graph({ state: 'deploying', conditions: [{ type: 'Ready', status: 'False', message: 'ignored' }] }));
    expect(status.phase).toBe('Deploying');
    expect(status.message).toBeUndefined();
    expect(status.replicas).toEqual({ desired: 6, ready: 0 });
    expect(status.conditions[0]).toMatchObject({ status: 'False', reason: 'DeploymentInProgress' });
  });

  it('row 3: state failed → Failed, message from the Ready condition (upstream declares no status.message)', () => {
    const status = mapDynamoStatus(
      graph({ state: 'failed', conditions: [{ type: 'Other', status: 'False', message: 'other' }, { type: 'Ready', status: 'False', message: 'insufficient GPUs' }] }),
    );
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('insufficient GPUs');
    expect(status.conditions[0]).toEqual({ type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: 'insufficient GPUs' });
  });

  it('failed without a False Ready condition falls back to another False condition, then to a generic text', () => {
    expect(
      mapDynamoStatus(graph({ state: 'failed', conditions: [{ type: 'Available', status: 'False', message: 'image pull failed' }] })).message,
    ).toBe('image pull failed');
    expect(mapDynamoStatus(graph({ state: 'failed', message: 'not an upstream field' })).message).toBe('DynamoGraphDeployment failed');
  });

  it('uses per-service counts the operator reports, workers only', () => {
    const status = mapDynamoStatus(
      graph({
        state: 'successful',
        services: {
          Frontend: { readyReplicas: 2, availableReplicas: 2 },
          VllmPrefillWorker: { readyReplicas: 2, availableReplicas: 2 },
          VllmDecodeWorker: { readyReplicas: 3, availableReplicas: 3 },
        },
      }),
    );
    expect(status.replicas).toEqual({ desired: 6, ready: 5, available: 5 });
  });

  it('seed §3.4 example: aggregated worker with 2 replicas', () => {
    const upstream = {
      metadata: { name: 'qwen-gpu-test' },
      spec: { services: { Frontend: { componentType: 'frontend' }, VllmWorker: { componentType: 'worker', replicas: 2 } } },
      status: { state: 'successful', services: { VllmWorker: { readyReplicas: 2, availableReplicas: 2 } } },
    };
    expect(mapDynamoStatus(upstream)).toMatchObject({
      phase: 'Running',
      replicas: { desired: 2, ready: 2, available: 2 },
      endpoint: { service: 'qwen-gpu-test-frontend', port: 8000 },
    });
  });

  it("upstream's pending and initializing → Deploying; no state yet or an unknown state → Deploying with a message", () => {
    expect(mapDynamoStatus(graph({ state: 'pending' }))).toMatchObject({ phase: 'Deploying', replicas: { desired: 6, ready: 0 } });
    expect(mapDynamoStatus(graph({ state: 'pending' }))).not.toHaveProperty('message');
    expect(mapDynamoStatus(graph({ state: 'initializing' })).phase).toBe('Deploying');
    expect(mapDynamoStatus(graph(undefined))).toMatchObject({ phase: 'Deploying', message: 'Waiting for DynamoGraphDeployment status' });
    expect(mapDynamoStatus(graph({ state: 'reticulating' }))).toMatchObject({
      phase: 'Deploying',
      message: "DynamoGraphDeployment reports unknown state 'reticulating'",
    });
  });

  it('a missing resource is Pending', () => {
    expect(mapDynamoStatus(undefined)).toMatchObject({ phase: 'Pending', message: 'DynamoGraphDeployment not created yet' });
  });
});

/** The same graph in nvidia.com/v1beta1: components listed, reported in status.components. */
function graphV1beta1(status: Record<string, unknown> | undefined, name = 'llama-70b-pd'): Record<string, unknown> {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name, namespace: 'default' },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', replicas: 2 },
        { name: 'VllmPrefillWorker', type: 'prefill', replicas: 2 },
        { name: 'VllmDecodeWorker', type: 'decode', replicas: 4 },
      ],
    },
    ...(status ? { status } : {}),
  };
}

describe('Dynamo status mapping, nvidia.com/v1beta1', () => {
  it('successful → Running with the per-component counts of workers (prefill, decode, worker), the frontend left out', () => {
    const status = mapDynamoStatus(
      graphV1beta1({
        state: 'successful',
        components: {
          Frontend: { componentKind: 'Deployment', replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
          VllmPrefillWorker: { componentKind: 'Deployment', replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 },
          VllmDecodeWorker: { componentKind: 'Deployment', replicas: 4, updatedReplicas: 4, readyReplicas: 4, availableReplicas: 3 },
        },
      }),
    );
    expect(status).toEqual({
      phase: 'Running',
      replicas: { desired: 6, ready: 6, available: 5 },
      endpoint: { service: 'llama-70b-pd-frontend', port: 8000 },
      conditions: [{ type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' }],
    });
  });

  it('successful without counts: ready is the desired worker replicas; an aggregated worker counts (type worker)', () => {
    const upstream = {
      metadata: { name: 'm' },
      spec: { components: [{ name: 'Frontend', type: 'frontend' }, { name: 'VllmWorker', type: 'worker', replicas: 3 }] },
      status: { state: 'successful' },
    };
    expect(mapDynamoStatus(upstream).replicas).toEqual({ desired: 3, ready: 3 });
  });

  it('pending → Deploying with the counts so far; failed → Failed with the Ready message', () => {
    expect(mapDynamoStatus(graphV1beta1({ state: 'pending', components: { VllmDecodeWorker: { readyReplicas: 1 } } }))).toMatchObject({
      phase: 'Deploying',
      replicas: { desired: 6, ready: 1 },
    });
    const failed = mapDynamoStatus(graphV1beta1({ state: 'failed', conditions: [{ type: 'Ready', status: 'False', reason: 'x', message: 'insufficient GPUs' }] }));
    expect(failed).toMatchObject({ phase: 'Failed', message: 'insufficient GPUs' });
  });

  it('v1alpha1 counts under status.services are not read for a v1beta1 graph (each version has its own map)', () => {
    expect(mapDynamoStatus(graphV1beta1({ state: 'pending', services: { VllmDecodeWorker: { readyReplicas: 4 } } })).replicas).toEqual({ desired: 6, ready: 0 });
  });

  it('malformed components are skipped, never thrown on', () => {
    const upstream = { metadata: { name: 'm' }, spec: { components: [null, 'x', { type: 'worker' }, { name: 'W', type: 'worker', replicas: -1 }] }, status: { state: 'successful', components: null } };
    expect(mapDynamoStatus(upstream).replicas).toEqual({ desired: 2, ready: 2 });
  });
});
