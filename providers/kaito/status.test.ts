import { describe, expect, it } from 'vitest';
import { mapKaitoStatus } from './status.ts';

function workspace(conditions: unknown[], count = 1): Record<string, unknown> {
  return {
    apiVersion: 'kaito.sh/v1beta1',
    kind: 'Workspace',
    metadata: { name: 'gemma-cpu', namespace: 'default' },
    resource: { count },
    status: { conditions },
  };
}

describe('KAITO status mapping (seed 001 §4.9 / seed 000 table)', () => {
  it('row 1: WorkspaceSucceeded True → Running, no message', () => {
    const status = mapKaitoStatus(
      workspace([
        { type: 'ResourceReady', status: 'True' },
        { type: 'InferenceReady', status: 'True' },
        { type: 'WorkspaceSucceeded', status: 'True', message: 'workspace succeeds' },
      ]),
    );
    expect(status.phase).toBe('Running');
    expect(status.message).toBeUndefined();
    expect(status.replicas).toEqual({ desired: 1, ready: 1, available: 1 });
    expect(status.conditions).toEqual([{ type: 'Ready', status: 'True', reason: 'DeploymentReady', message: 'All replicas are ready' }]);
  });

  it('row 2: InferenceReady False → Deploying with the condition message', () => {
    const status = mapKaitoStatus(
      workspace([
        { type: 'ResourceReady', status: 'True', message: 'nodes ready' },
        { type: 'InferenceReady', status: 'False', reason: 'InferencePending', message: 'inference deployment is not ready: 0/1 replicas' },
      ]),
    );
    expect(status.phase).toBe('Deploying');
    expect(status.message).toBe('inference deployment is not ready: 0/1 replicas');
    expect(status.conditions[0]).toEqual({
      type: 'Ready',
      status: 'False',
      reason: 'DeploymentInProgress',
      message: 'inference deployment is not ready: 0/1 replicas',
    });
  });

  it('row 3: error condition (WorkspaceSucceeded False) → Failed with the condition message', () => {
    const status = mapKaitoStatus(
      workspace([
        { type: 'InferenceReady', status: 'False', message: 'not ready' },
        { type: 'WorkspaceSucceeded', status: 'False', reason: 'workspaceFailed', message: 'insufficient GPUs in node pool' },
      ]),
    );
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('insufficient GPUs in node pool');
    expect(status.conditions[0]).toEqual({ type: 'Ready', status: 'False', reason: 'DeploymentFailed', message: 'insufficient GPUs in node pool' });
  });

  it('row 3: any False condition whose reason reports an error → Failed with its message', () => {
    const status = mapKaitoStatus(
      workspace([
        { type: 'ResourceReady', status: 'False', reason: 'CreateNodeClaimFailed', message: 'quota exceeded for Standard_NC24ads_A100_v4' },
        { type: 'InferenceReady', status: 'False', message: 'waiting' },
      ]),
    );
    expect(status.phase).toBe('Failed');
    expect(status.message).toBe('quota exceeded for Standard_NC24ads_A100_v4');
  });

  it('an error condition without a message still explains itself', () => {
    const status = mapKaitoStatus(workspace([{ type: 'WorkspaceSucceeded', status: 'False', reason: 'workspaceFailed' }]));
    expect(status.message).toBe('WorkspaceSucceeded: workspaceFailed');
  });

  it('success wins over a stale error condition', () => {
    const status = mapKaitoStatus(
      workspace([
        { type: 'ResourceReady', status: 'False', reason: 'SomethingFailed', message: 'old' },
        { type: 'WorkspaceSucceeded', status: 'True' },
      ]),
    );
    expect(status.phase).toBe('Running');
  });

  it('a Workspace without conditions is Deploying, with the service endpoint on port 80', () => {
    const status = mapKaitoStatus(workspace([], 3));
    expect(status).toEqual({
      phase: 'Deploying',
      message: 'Waiting for Workspace to become ready',
      replicas: { desired: 3, ready: 0, available: 0 },
      endpoint: { service: 'gemma-cpu', port: 80 },
      conditions: [{ type: 'Ready', status: 'False', reason: 'DeploymentInProgress', message: 'Waiting for Workspace to become ready' }],
    });
  });

  it('with another False condition, Deploying carries its message', () => {
    const status = mapKaitoStatus(workspace([{ type: 'ResourceReady', status: 'False', reason: 'NodeNotReady', message: 'waiting for node' }]));
    expect(status).toMatchObject({ phase: 'Deploying', message: 'waiting for node' });
  });

  it('a missing Workspace is Pending', () => {
    expect(mapKaitoStatus(undefined)).toMatchObject({ phase: 'Pending', message: 'Workspace not created yet', replicas: { desired: 0, ready: 0 } });
  });

  it('endpoint matches seed Example 2 status', () => {
    expect(mapKaitoStatus(workspace([{ type: 'WorkspaceSucceeded', status: 'True' }])).endpoint).toEqual({ service: 'gemma-cpu', port: 80 });
  });
});
