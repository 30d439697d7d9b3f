import { describe, expect, it } from 'vitest';
import type { FlameCluster } from '../../api/flame/types.ts';
import { flameClusterStatus, flameClusterStatusView } from './status.ts';
import { historyText, type HistoryReport } from '../../cli/operator/history-format.ts';
import { objectStatusView } from '../../present/object-status.ts';
import { pauseText, workflowAcknowledged } from '../../cli/operator/pause.ts';
import { retryText } from '../../cli/operator/retry.ts';
import type { WorkflowState } from '../../present/workflow-state.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z');

const fc = (name: string, status?: FlameCluster['status'], annotations?: Record<string, string>): FlameCluster => ({
  apiVersion: 'flame.xflops.io/v1alpha1',
  kind: 'FlameCluster',
  metadata: { namespace: 'team-a', name, uid: `uid-${name}`, ...(annotations ? { annotations } : {}), creationTimestamp: '2025-03-01T11:55:00Z' } as FlameCluster['metadata'],
  spec: { sessionManager: { image: 's' }, executorManager: { image: 'e', replicas: 3 } },
  ...(status ? { status } : {}),
});

const wf = (fields: Partial<WorkflowState>): WorkflowState => ({
  workflowId: 'flamecluster/team-a/x/uid',
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

const running: FlameCluster['status'] = {
  state: 'Running',
  message: '',
  sessionManager: { ready: 1, endpoint: 'http://my-flame-session-manager.team-a.svc:8080' },
  executorManager: { replicas: 3, ready: 2 },
  configGeneration: 1,
  observedGeneration: 1,
};

describe('flameClusterStatus', () => {
  it('takes state, executors and session manager from the object, step and error from the workflow', () => {
    const s = flameClusterStatus(fc('my-flame', running), wf({ step: 'apply', waitingFor: 'pod x to terminate', phase: 'Pending', lastError: { step: 'apply', type: 'KubeForbidden', message: 'no', at: 't' } }), NOW);
    expect(s).toEqual({
      kind: 'FlameCluster',
      namespace: 'team-a',
      name: 'my-flame',
      uid: 'uid-my-flame',
      state: 'Running',
      message: null,
      executors: { ready: 2, replicas: 3 },
      sessionManager: { ready: 1, endpoint: 'http://my-flame-session-manager.team-a.svc:8080' },
      configGeneration: 1,
      paused: false,
      deleting: false,
      step: 'apply',
      waitingFor: 'pod x to terminate',
      lastError: { step: 'apply', type: 'KubeForbidden', message: 'no', at: 't' },
      createdAt: '2025-03-01T11:55:00Z',
      age: '5m',
      workflow: { id: 'flamecluster/team-a/x/uid', status: 'RUNNING', source: 'query', note: null },
    });
  });

  it("falls back to the workflow's phase and the spec's replicas before the first status write, and works without a workflow", () => {
    expect(flameClusterStatus(fc('new'), wf({ phase: 'Pending' }), NOW)).toMatchObject({ state: 'Pending', executors: { ready: null, replicas: 3 }, sessionManager: { ready: null, endpoint: null } });
    expect(flameClusterStatus(fc('new'), undefined, NOW)).toMatchObject({ state: null, step: null, workflow: { id: 'flamecluster/team-a/new/uid-new', status: 'UNKNOWN', source: 'none' } });
  });

  it('reads no status that does not conform to its schema, as before its first write', () => {
    const stored = { ...fc('odd'), status: { ...running, executorManager: { replicas: 3, ready: -1 } } };
    expect(flameClusterStatus(stored, wf({ phase: 'Pending' }), NOW)).toMatchObject({ state: 'Pending', executors: { ready: null, replicas: 3 }, configGeneration: null });
  });
});

describe('FlameCluster status output', () => {
  const rows = [
    flameClusterStatusView.row(fc('my-flame', running) as never, wf({}), NOW),
    flameClusterStatusView.row(
      fc('stuck', { ...running, state: 'Pending', message: 'waiting for executors', executorManager: { replicas: 2, ready: 0 } }, { 'kubeairunway.ai/reconcile-paused': 'true' }) as never,
      wf({ source: 'memo', step: 'paused', waitingFor: 'the pause annotation to be removed', lastError: { message: 'boom' }, note: 'no worker answered the view query' }),
      NOW,
    ),
  ];

  it('prints a table with state, ready executors, step, what it waits for, last error and the workflow', () => {
    expect(flameClusterStatusView.table(rows)).toBe(
      [
        'NAMESPACE   NAME       STATE              EXECUTORS   STEP     WAITING FOR                          AGE   LAST ERROR   WORKFLOW',
        'team-a      my-flame   Running            2/3         idle     <none>                               5m    <none>       running',
        'team-a      stuck      Pending (paused)   0/2         paused   the pause annotation to be removed   5m    boom         running',
        'note: no worker answered the view query',
        '',
      ].join('\n'),
    );
  });

  it('prints one cluster as fields', () => {
    expect(flameClusterStatusView.detail(rows[0]!)).toBe(
      [
        'Name:              team-a/my-flame',
        'State:             Running',
        'Executors:         2/3 ready',
        'Session manager:   ready at http://my-flame-session-manager.team-a.svc:8080',
        'Config generation: 1',
        'Step:              idle',
        'Age:               5m',
        'Workflow:          flamecluster/team-a/x/uid (running)',
        '',
      ].join('\n'),
    );
    expect(flameClusterStatusView.detail(rows[1]!)).toContain('State:             Pending (reconciliation paused)\nMessage:           waiting for executors\n');
  });

  it("shows a kind without a presentation of its own by its workflow's view", () => {
    const view = objectStatusView('Widget');
    const row = view.row({ metadata: { namespace: 'a', name: 'w', uid: 'u' } }, wf({ workflowId: 'widget/a/w/u', phase: 'Ready', step: 'idle' }), NOW);
    expect(row).toMatchObject({ kind: 'Widget', phase: 'Ready', step: 'idle', workflow: { id: 'widget/a/w/u' } });
    expect(view.table([row]).split('\n')[0]).toMatch(/^NAMESPACE\s+NAME\s+PHASE\s+STEP\s+WAITING FOR\s+AGE\s+LAST ERROR\s+WORKFLOW$/);
    expect(view.detail(row)).toContain('Kind:        Widget\nPhase:       Ready\n');
  });
});

describe('FlameCluster reports', () => {
  it('acknowledge a pause by the workflow\'s live view only', () => {
    expect(workflowAcknowledged(wf({ step: 'paused' }), true)).toBe(true);
    expect(workflowAcknowledged(wf({ step: 'idle' }), true)).toBe(false);
    expect(workflowAcknowledged(wf({ step: 'paused', source: 'memo' }), true)).toBe(false);
    expect(workflowAcknowledged(wf({ step: 'apply' }), false)).toBe(true);
    expect(workflowAcknowledged(wf({ step: 'paused' }), false)).toBe(false);
    expect(workflowAcknowledged(wf({ status: 'NOT_FOUND', source: 'none', step: undefined }), false)).toBe(false);
  });

  it('name the cluster with its kind, the way the commands take it back', () => {
    expect(pauseText({ kind: 'FlameCluster', deployment: { namespace: 'a', name: 'b' }, paused: true, changed: true, acknowledged: true })).toBe(
      'Paused flamecluster/a/b: the controller leaves it and its pods, Services and ConfigMap as they are until `kubeairunway resume flamecluster/a/b`.\n',
    );
    const retried = retryText({
      kind: 'FlameCluster',
      deployment: { namespace: 'a', name: 'b', uid: 'u' },
      workflowId: 'flamecluster/a/b/u',
      retried: 'apply',
      wasWaitingFor: null,
      previousError: { step: 'apply', type: 'KubeForbidden', message: 'no', at: 't' },
      outcome: 'succeeded',
      error: null,
      durationMs: 300,
      now: { phase: 'Running', step: 'idle', waitingFor: null, provider: null },
    });
    expect(retried).toBe("Retried step 'apply' of flamecluster/a/b, which had failed: KubeForbidden: no\nThe new attempt succeeded in 300ms: phase Running.\n");
    const report: HistoryReport = {
      kind: 'FlameCluster',
      deployment: { namespace: 'a', name: 'b', uid: 'u', exists: false },
      workflowId: 'flamecluster/a/b/u',
      status: 'COMPLETED',
      runs: [{ runId: 'r', events: 3 }],
      olderRunsOmitted: false,
      ui: { run: 'http://ui/run', allRuns: 'http://ui/all', byName: 'http://ui/by-name' },
      timeline: [],
    };
    expect(historyText(report).split('\n')[0]).toBe('FlameCluster a/b (uid u) — deleted');
  });
});
