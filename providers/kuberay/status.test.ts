import { describe, expect, it } from 'vitest';
import { mapKuberayStatus } from './status.ts';

function rayService(status: Record<string, unknown> | undefined): Record<string, unknown> {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayService',
    metadata: { name: 'llama-ray', namespace: 'default' },
    spec: { rayClusterConfig: { workerGroupSpecs: [{ groupName: 'prefill-workers', replicas: 2 }, { groupName: 'decode-workers', replicas: 4 }] } },
    ...(status ? { status } : {}),
  };
}

describe('KubeRay status mapping (seed 001 §4.9 / seed 000 table)', () => {
  it('row 1: serviceStatus Running → Running, no message', () => {
    expect(mapKuberayStatus(rayService({ serviceStatus: 'Running' }))).toEqual({
      phase: 'Running',
      replicas: { desired: 6, ready: 6 },
      endpoint: { service: 'llama-ray-serve-svc', port: 8000 },
      conditions: [{ type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' }],
    });
  });

  it('row 2: serviceStatus Pending → Pending, no message', () => {
    const status = mapKuberayStatus(rayService({ serviceStatus: 'Pending' }));
    expect(status.phase).toBe('Pending');
    expect(status.message).toBeUndefined();
    expect(status.replicas).toEqual({ desired: 6, ready: 0 });
  });

  it('row 3: serviceStatus Failed → Failed, message from the Serve statuses', () => {
    const status = mapKuberayStatus(
      rayService({
        serviceStatus: 'Failed',
        activeServiceStatus: {
          applicationStatuses: {
            llm: {
              status: 'DEPLOY_FAILED',
              message: 'Deploying app llm failed',
              serveDeploymentStatuses: {
                LLMServer: { status: 'UNHEALTHY', message: 'CUDA out of memory' },
                Router: { status: 'HEALTHY', message: 'ok' },
              },
            },
          },
        },
      }),
    );
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('llm: Deploying app llm failed; llm/LLMServer: CUDA out of memory');
    expect(status.conditions[0]).toMatchObject({ status: 'False', reason: 'DeploymentFailed', message: status.message });
  });

  it('row 3, older list form: serveStatuses[]', () => {
    const status = mapKuberayStatus(
      rayService({
        serviceStatus: 'FailedToUpdateServingPodLabel',
        activeServiceStatus: { serveStatuses: [{ name: 'VLLMDeployment', status: 'UNHEALTHY', message: 'replica crashed' }] },
      }),
    );
    expect(status).toMatchObject({ phase: 'Failed', message: 'VLLMDeployment: replica crashed' });
  });

  it('Failed without Serve messages says which status failed', () => {
    expect(mapKuberayStatus(rayService({ serviceStatus: 'Failed' })).message).toBe('Failed');
  });

  it('reports the ready and available worker counts of the active cluster', () => {
    const status = mapKuberayStatus(
      rayService({ serviceStatus: 'Running', activeServiceStatus: { rayClusterStatus: { readyWorkerReplicas: 5, availableWorkerReplicas: 5 } } }),
    );
    expect(status.replicas).toEqual({ desired: 6, ready: 5, available: 5 });
  });

  it('without serviceStatus, a Ready condition decides; otherwise Deploying', () => {
    expect(mapKuberayStatus(rayService({ conditions: [{ type: 'Ready', status: 'True' }] })).phase).toBe('Running');
    expect(mapKuberayStatus(rayService({ conditions: [{ type: 'Ready', status: 'False', message: 'waiting for serve' }] }))).toMatchObject({
      phase: 'Deploying',
      message: 'waiting for serve',
    });
    expect(mapKuberayStatus(rayService(undefined))).toMatchObject({ phase: 'Deploying', message: 'Waiting for RayService status' });
    expect(mapKuberayStatus(rayService({ serviceStatus: 'WaitForServeDeploymentReady' }))).toMatchObject({
      phase: 'Deploying',
      message: 'RayService serviceStatus is WaitForServeDeploymentReady',
    });
  });

  it('a missing RayService is Pending', () => {
    expect(mapKuberayStatus(undefined)).toMatchObject({ phase: 'Pending', message: 'RayService not created yet' });
  });
});
