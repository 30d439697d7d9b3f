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
    const status = mapDynamoStatus(graph({ state: 'deploying', message: 'ignored' }));
    expect(status.phase).toBe('Deploying');
    expect(status.message).toBeUndefined();
    expect(status.replicas).toEqual({ desired: 6, ready: 0 });
    expect(status.conditions[0]).toMatchObject({ status: 'False', reason: 'DeploymentInProgress' });
  });

  it('row 3: state failed → Failed, message from status.message', () => {
    const status = mapDynamoStatus(graph({ state: 'failed', message: 'insufficient GPUs' }));
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('insufficient GPUs');
    expect(status.conditions[0]).toEqual({ type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: 'insufficient GPUs' });
  });

  it('failed without status.message falls back to a False condition, then to a generic text', () => {
    expect(
      mapDynamoStatus(graph({ state: 'failed', conditions: [{ type: 'Ready', status: 'False', message: 'image pull failed' }] })).message,
    ).toBe('image pull failed');
    expect(mapDynamoStatus(graph({ state: 'failed' })).message).toBe('DynamoGraphDeployment failed');
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

  it('pending → Pending; no state yet or an unknown state → Deploying with a message', () => {
    expect(mapDynamoStatus(graph({ state: 'pending' })).phase).toBe('Pending');
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
