import { describe, expect, it } from 'vitest';
import { mapDeploymentStatus } from './status.ts';

const MD = 'kubeairunway.ai/model-deployment';

function deployment(name: string, desired: number, ready: number, extra: Record<string, unknown> = {}) {
  return {
    metadata: { name, labels: { [MD]: 'llama' } },
    spec: { replicas: desired, template: { spec: { containers: [{ name: 'server', ports: [{ name: 'http', containerPort: 8000 }] }] } } },
    status: { readyReplicas: ready, availableReplicas: ready, ...extra },
  };
}

function pod(name: string, status: Record<string, unknown>) {
  return { metadata: { name, labels: { [MD]: 'llama' } }, status };
}

const waiting = (reason: string, message = '', more: Record<string, unknown> = {}) => ({
  containerStatuses: [{ name: 'server', image: 'vllm/vllm-openai:nope', ready: false, state: { waiting: { reason, message } }, ...more }],
});

describe('deployment status mapping', () => {
  it('no Deployment yet → Pending', () => {
    expect(mapDeploymentStatus(undefined)).toMatchObject({ phase: 'Pending', message: 'Deployment not created yet', replicas: { desired: 0, ready: 0 } });
  });

  it('all replicas ready → Running, Ready=True, endpoint = the Service of the same name on the container port', () => {
    const status = mapDeploymentStatus(deployment('llama', 2, 2), { Pod: [], Deployment: [] });
    expect(status).toMatchObject({ phase: 'Running', replicas: { desired: 2, ready: 2, available: 2 }, endpoint: { service: 'llama', port: 8000 } });
    expect(status.conditions[0]).toMatchObject({ type: 'Ready', status: 'True' });
    expect(status.message).toBeUndefined();
  });

  it('pods starting → Deploying "<ready>/<desired> replicas ready"', () => {
    const status = mapDeploymentStatus(deployment('llama', 2, 1), { Pod: [pod('llama-a', { containerStatuses: [{ name: 'server', state: { running: {} } }] })] });
    expect(status).toMatchObject({ phase: 'Deploying', message: '1/2 replicas ready' });
    expect(status.notReadyReason).toBeUndefined();
  });

  it('image pull failure → Failed naming the image', () => {
    const status = mapDeploymentStatus(deployment('llama', 1, 0), { Pod: [pod('llama-a', waiting('ImagePullBackOff', 'Back-off pulling image "vllm/vllm-openai:nope"'))] });
    expect(status.phase).toBe('Failed');
    expect(status.message).toContain("image 'vllm/vllm-openai:nope' cannot be pulled (ImagePullBackOff)");
    expect(status.notReadyReason).toBe('ImagePullBackOff');
    expect(status.conditions[0]).toMatchObject({ type: 'Ready', status: 'False', reason: 'DeploymentFailed' });
  });

  it('crash loop → Failed with the last termination reason and exit code', () => {
    const crash = waiting('CrashLoopBackOff', 'back-off 10s', { lastState: { terminated: { reason: 'Error', exitCode: 1, message: 'loading\nerror: model file not found' } } });
    const status = mapDeploymentStatus(deployment('llama', 1, 0), { Pod: [pod('llama-a', crash)] });
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe("Pod llama-a: container 'server' is crash-looping (CrashLoopBackOff), last terminated with Error (exit code 1): error: model file not found");
    expect(status.notReadyReason).toBe('CrashLoopBackOff');
  });

  it('OOMKilled → Failed, telling to raise the memory', () => {
    const oom = waiting('CrashLoopBackOff', '', { lastState: { terminated: { reason: 'OOMKilled', exitCode: 137 } } });
    const status = mapDeploymentStatus(deployment('llama', 1, 0), { Pod: [pod('llama-a', oom)] });
    expect(status).toMatchObject({ phase: 'Failed', notReadyReason: 'OOMKilled' });
    expect(status.message).toContain('(OOMKilled, exit code 137); raise resources.memory');
  });

  it("unschedulable → Pending with the scheduler's message", () => {
    const why = '0/1 nodes are available: 1 Insufficient cpu.';
    const unscheduled = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: why }] };
    const status = mapDeploymentStatus(deployment('llama', 1, 0), { Pod: [pod('llama-a', unscheduled)] });
    expect(status).toMatchObject({ phase: 'Pending', message: `Pod llama-a cannot be scheduled: ${why}`, notReadyReason: 'Unschedulable' });
  });

  it("waiting for a claim (missing, or not bound yet) → Pending naming the pod's claims, which the scheduler does not always name", () => {
    const claims = { volumes: [{ name: 'cache', persistentVolumeClaim: { claimName: 'models' } }, { name: 'shm', emptyDir: {} }] };
    for (const why of ['0/1 nodes are available: persistentvolumeclaim "models" not found.', '0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.']) {
      const unscheduled = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: why }] };
      const status = mapDeploymentStatus(deployment('llama', 1, 0), { Pod: [{ ...pod('llama-a', unscheduled), spec: claims }] });
      expect(status).toMatchObject({ phase: 'Pending', message: `Pod llama-a is waiting for its PersistentVolumeClaim 'models' (missing or not bound yet): ${why}`, notReadyReason: 'Unschedulable' });
    }
  });

  it('a missing Secret → Failed (CreateContainerConfigError)', () => {
    const status = mapDeploymentStatus(deployment('llama', 1, 0), { Pod: [pod('llama-a', waiting('CreateContainerConfigError', 'secret "hf-token" not found'))] });
    expect(status).toMatchObject({ phase: 'Failed', notReadyReason: 'CreateContainerConfigError' });
    expect(status.message).toContain('secret "hf-token" not found');
  });

  it('a Deployment past its progress deadline → Failed with its message', () => {
    const stuck = deployment('llama', 1, 0, { conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "llama-x" has timed out progressing.' }] });
    expect(mapDeploymentStatus(stuck, { Pod: [] })).toMatchObject({ phase: 'Failed', message: 'Deployment llama: ReplicaSet "llama-x" has timed out progressing.' });
  });

  it('a failing pod of an update while the old ones serve → Running, the problem in the message', () => {
    const status = mapDeploymentStatus(deployment('llama', 1, 1), { Pod: [pod('llama-new', waiting('ErrImagePull'))] });
    expect(status.phase).toBe('Running');
    expect(status.message).toContain('cannot be pulled');
  });

  it('pods being deleted are not looked at; the first problem in pod-name order is the one shown', () => {
    const gone = { ...pod('llama-0', waiting('ErrImagePull')), metadata: { name: 'llama-0', deletionTimestamp: '2024-01-01T00:00:00Z' } };
    const status = mapDeploymentStatus(deployment('llama', 2, 0), { Pod: [pod('llama-b', waiting('CrashLoopBackOff')), gone, pod('llama-a', waiting('ImagePullBackOff'))] });
    expect(status.message).toMatch(/^Pod llama-a:/);
  });

  it('disaggregated: replicas summed over both roles, endpoint the primary (decode)', () => {
    const decode = deployment('llama-decode', 4, 4);
    const prefill = deployment('llama-prefill', 2, 1);
    const status = mapDeploymentStatus(decode, { Deployment: [decode, prefill], Pod: [] });
    expect(status).toMatchObject({ phase: 'Deploying', replicas: { desired: 6, ready: 5, available: 5 }, endpoint: { service: 'llama-decode', port: 8000 } });
  });

  it('scaled to zero → Running', () => {
    expect(mapDeploymentStatus(deployment('llama', 0, 0), {})).toMatchObject({ phase: 'Running', message: 'Scaled to zero replicas' });
  });

  it('never throws on malformed input', () => {
    for (const junk of [null, 1, 'x', [], { spec: 'no' }, { status: { conditions: 'x' } }]) {
      expect(() => mapDeploymentStatus(junk, { Pod: [junk, { status: { containerStatuses: [null, 1] } }], Deployment: [junk] })).not.toThrow();
    }
  });
});
