import { describe, expect, it } from 'vitest';
import type { ModelDeployment } from '../../api/types.ts';
import { deploymentPauseAcknowledged, deploymentStatus, deploymentStatusView } from '../../kinds/model-deployment/status.ts';
import { historyText, shortTime, type HistoryReport } from './history-format.ts';
import { pauseText } from './pause.ts';
import { retryText, type RetryReport } from './retry.ts';
import { workflowListUrl, workflowRunUrl } from './temporal-ui.ts';
import type { WorkflowState } from '../../present/workflow-state.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z');

const md = (name: string, status: ModelDeployment['status'], annotations?: Record<string, string>): ModelDeployment => ({
  metadata: { namespace: 'team-a', name, uid: `uid-${name}`, creationTimestamp: '2025-03-01T11:55:00Z', ...(annotations ? { annotations } : {}) },
  spec: {} as ModelDeployment['spec'],
  status,
});

const wf = (fields: Partial<WorkflowState>): WorkflowState => ({
  workflowId: 'modeldeployment/team-a/x/uid',
  status: 'RUNNING',
  source: 'query',
  step: 'idle',
  waitingFor: undefined,
  provider: undefined,
  phase: undefined,
  lastError: undefined,
  note: undefined,
  ...fields,
});

describe('deploymentStatus', () => {
  it('takes phase, provider and replicas from the object, step and error from the workflow', () => {
    const s = deploymentStatus(
      md('llama', { phase: 'Running', provider: { name: 'dynamo' }, replicas: { desired: 2, ready: 1 } }),
      wf({ step: 'apply', waitingFor: 'x', provider: 'kaito', phase: 'Deploying', lastError: { step: 'apply', type: 'KubeForbidden', message: 'no', at: 't' } }),
      NOW,
    );
    expect(s).toMatchObject({
      namespace: 'team-a',
      name: 'llama',
      phase: 'Running',
      provider: 'dynamo',
      replicas: { ready: 1, desired: 2 },
      step: 'apply',
      waitingFor: 'x',
      lastError: { type: 'KubeForbidden', message: 'no' },
      age: '5m',
      workflow: { id: 'modeldeployment/team-a/x/uid', status: 'RUNNING', source: 'query', note: null },
    });
  });

  it('falls back to the workflow before the first status write, and works without a workflow', () => {
    expect(deploymentStatus(md('new', undefined), wf({ phase: 'Pending', provider: 'acme' }), NOW)).toMatchObject({ phase: 'Pending', provider: 'acme' });
    expect(deploymentStatus(md('new', undefined), undefined, NOW)).toMatchObject({ phase: null, step: null, workflow: { id: 'modeldeployment/team-a/new/uid-new', status: 'UNKNOWN', source: 'none' } });
  });
});

describe('status output', () => {
  const rows = [
    deploymentStatus(md('llama', { phase: 'Running', provider: { name: 'dynamo' }, replicas: { desired: 1, ready: 1 } }), wf({}), NOW),
    deploymentStatus(
      md('stuck', { phase: 'Pending', message: "Provider 'acme' CRD not installed in cluster" }, { 'kubeairunway.ai/reconcile-paused': 'true' }),
      wf({ source: 'memo', step: 'validate', lastError: { message: 'boom' }, note: 'no worker answered the view query' }),
      NOW,
    ),
  ];

  it('prints a table with the columns of the brief and a note for the memo fallback', () => {
    expect(deploymentStatusView.table(rows)).toBe(
      [
        'NAMESPACE   NAME    PHASE              PROVIDER   READY    STEP       AGE   LAST ERROR',
        'team-a      llama   Running            dynamo     1/1      idle       5m    <none>',
        'team-a      stuck   Pending (paused)   <none>     <none>   validate   5m    boom',
        'note: no worker answered the view query',
        '',
      ].join('\n'),
    );
  });

  it('prints one deployment as fields', () => {
    expect(deploymentStatusView.detail(rows[1]!)).toBe(
      [
        'Name:        team-a/stuck',
        'Phase:       Pending (reconciliation paused)',
        "Message:     Provider 'acme' CRD not installed in cluster",
        'Step:        validate',
        'Last error:  boom',
        'Age:         5m',
        'Workflow:    modeldeployment/team-a/x/uid (running)',
        'note: no worker answered the view query',
        '',
      ].join('\n'),
    );
  });
});

describe('history output', () => {
  const report: HistoryReport = {
    kind: 'ModelDeployment',
    deployment: { namespace: 'team-a', name: 'llama', uid: 'u1', exists: true },
    workflowId: 'modeldeployment/team-a/llama/u1',
    status: 'RUNNING',
    runs: [{ runId: 'r1', events: 10 }],
    olderRunsOmitted: false,
    ui: { run: 'http://ui/run', allRuns: 'http://ui/all', byName: 'http://ui/by-name' },
    timeline: [
      { time: '2025-03-01T10:00:00.100Z', run: 1, kind: 'step', step: 'readDeployment', durationMs: 100, outcome: 'completed', attempts: 1, error: null, detail: null, taskQueue: 'q' },
      { time: '2025-03-01T10:00:01.000Z', run: 1, kind: 'step', step: 'reconcileResource', durationMs: 3200, outcome: 'failed', attempts: 3, error: 'KubeForbidden: no', detail: null, taskQueue: 'q' },
    ],
  };

  it('prints the header with the Temporal UI links, then the timeline', () => {
    expect(historyText(report)).toBe(
      [
        'ModelDeployment team-a/llama (uid u1)',
        'Workflow modeldeployment/team-a/llama/u1: running, 1 run shown',
        'Temporal UI: http://ui/run',
        'All runs:    http://ui/all',
        'By name:     http://ui/by-name',
        '',
        'TIME                   RUN   STEP                DURATION   OUTCOME              DETAIL',
        '2025-03-01 10:00:00Z   1     readDeployment      100ms      completed            -',
        '2025-03-01 10:00:01Z   1     reconcileResource   3.2s       failed (attempt 3)   KubeForbidden: no',
        '',
      ].join('\n'),
    );
  });

  it('says when older runs were left out and when nothing happened yet', () => {
    const text = historyText({ ...report, olderRunsOmitted: true, deployment: { ...report.deployment, exists: false }, timeline: [] });
    expect(text).toContain('— deleted');
    expect(text).toContain('(older runs omitted: raise --runs)');
    expect(text.endsWith('No steps recorded yet.\n')).toBe(true);
    expect(shortTime('')).toBe('');
  });

  it('links to the Temporal UI with the workflow ID encoded', () => {
    expect(workflowRunUrl('http://127.0.0.1:8233/', 'default', 'modeldeployment/a/b/u', 'r1')).toBe(
      'http://127.0.0.1:8233/namespaces/default/workflows/modeldeployment%2Fa%2Fb%2Fu/r1/history',
    );
    expect(workflowListUrl('http://ui', 'default', 'MdNamespace = "a" AND MdPhase = "Failed"')).toBe(
      'http://ui/namespaces/default/workflows?query=MdNamespace%20%3D%20%22a%22%20AND%20MdPhase%20%3D%20%22Failed%22',
    );
  });
});

describe('retry output', () => {
  const base: RetryReport = {
    kind: 'ModelDeployment',
    deployment: { namespace: 'team-a', name: 'llama', uid: 'u' },
    workflowId: 'w',
    retried: 'validate',
    wasWaitingFor: 'a valid spec',
    previousError: null,
    outcome: 'succeeded',
    error: null,
    durationMs: 1200,
    now: { phase: 'Deploying', step: 'idle', waitingFor: null, provider: 'acme' },
  };

  it('says what it retried and how the new attempt ended', () => {
    expect(retryText(base)).toBe("Retried step 'validate' of team-a/llama, which was waiting for a valid spec.\nThe new attempt succeeded in 1.2s: phase Deploying, provider acme.\n");
    const failedAgain = retryText({
      ...base,
      retried: 'apply',
      previousError: { step: 'apply', type: 'KubeForbidden', message: 'no', at: 't' },
      outcome: 'failed',
      error: { step: 'apply', type: 'KubeForbidden', message: 'still no', at: 't' },
    });
    expect(failedAgain).toBe("Retried step 'apply' of team-a/llama, which had failed: KubeForbidden: no\nThe new attempt failed at step 'apply' (1.2s): KubeForbidden: still no\n");
    expect(retryText({ ...base, retried: null, wasWaitingFor: null })).toContain('Nothing had failed or was waiting in team-a/llama; ran a fresh reconciliation pass.');
    expect(retryText({ ...base, outcome: 'waiting', now: { ...base.now, waitingFor: "the CRD of provider 'acme' to be installed", step: 'apply' } })).toContain(
      "is waiting for the CRD of provider 'acme' to be installed",
    );
  });
});

describe('pause output', () => {
  it('says what changed and how to undo it', () => {
    expect(pauseText({ kind: 'ModelDeployment', deployment: { namespace: 'a', name: 'b' }, paused: true, changed: true, acknowledged: true })).toBe(
      'Paused a/b: the controller leaves it and its provider resources as they are until `kubeairunway resume a/b`.\n',
    );
    expect(pauseText({ kind: 'ModelDeployment', deployment: { namespace: 'a', name: 'b' }, paused: true, changed: false, acknowledged: null })).toContain('a/b was already paused');
    expect(pauseText({ kind: 'ModelDeployment', deployment: { namespace: 'a', name: 'b' }, paused: false, changed: true, acknowledged: true })).toContain('Resumed a/b: the controller reconciles it again');
  });

  it('reads the acknowledgement from the ReconcilePaused condition', () => {
    const withCondition = (status?: 'True' | 'False') => md('x', status ? { conditions: [{ type: 'ReconcilePaused', status }] } : {});
    expect(deploymentPauseAcknowledged(withCondition('True'), true)).toBe(true);
    expect(deploymentPauseAcknowledged(withCondition(), true)).toBe(false);
    expect(deploymentPauseAcknowledged(withCondition(), false)).toBe(true);
    expect(deploymentPauseAcknowledged(withCondition('True'), false)).toBe(false);
  });
});
