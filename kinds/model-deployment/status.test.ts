import { describe, expect, it } from 'vitest';
import type { ModelDeployment } from '../../api/types.ts';
import { deploymentStatus, deploymentStatusView, lastErrorText } from './status.ts';
import type { WorkflowState } from '../../present/workflow-state.ts';

const wf: WorkflowState = { workflowId: 'w', status: 'RUNNING', source: 'query', step: 'idle', waitingFor: undefined, provider: 'kaito', phase: 'Failed', lastError: undefined, note: undefined };
const md = (phase: string, message: string): ModelDeployment =>
  ({ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: 'gemma', namespace: 'default', uid: 'u', creationTimestamp: new Date(0).toISOString() }, spec: {}, status: { phase, message } }) as unknown as ModelDeployment;

describe('LAST ERROR of a deployment', () => {
  it('shows the status message of a Failed deployment whose workflow steps all succeeded', () => {
    const s = deploymentStatus(md('Failed', 'insufficient GPUs'), wf, 1_000);
    expect(lastErrorText(s)).toBe('insufficient GPUs');
    expect(deploymentStatusView.table([deploymentStatusView.row(md('Failed', 'insufficient GPUs') as never, wf, 1_000)])).toContain('insufficient GPUs');
  });

  it("prefers the workflow's failed step, and shows nothing for a deployment that is not Failed", () => {
    expect(lastErrorText(deploymentStatus(md('Failed', 'x'), { ...wf, lastError: { message: 'apply failed' } }, 1_000))).toBe('apply failed');
    expect(lastErrorText(deploymentStatus(md('Running', 'All replicas are ready'), wf, 1_000))).toBeNull();
  });
});
