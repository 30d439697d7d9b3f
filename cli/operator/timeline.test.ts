import { defaultPayloadConverter } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { buildTimeline, describeFailure, type HistoryEvent } from './timeline.ts';

const T0 = Date.parse('2025-03-01T10:00:00Z') / 1000;
const payloads = (value: unknown) => ({ payloads: [defaultPayloadConverter.toPayload(value)] });

/** Events of one run, with ids and times (seconds after T0) filled in. */
// Plain objects stand in for the protobuf messages (Long ids as numbers), as the reader only reads fields.
function events(...list: [number, Record<string, unknown>][]): HistoryEvent[] {
  return list.map(([at, e], i) => ({ eventId: i + 1, eventTime: { seconds: T0 + Math.floor(at), nanos: Math.round((at % 1) * 1e9) }, ...e }) as unknown as HistoryEvent);
}

const failure = (f: Record<string, unknown>) => f as unknown as Parameters<typeof describeFailure>[0];
const started = (continued?: string) => ({ workflowExecutionStartedEventAttributes: { taskQueue: { name: 'kubeairunway-core' }, ...(continued ? { continuedExecutionRunId: continued } : {}) } });
const scheduled = (name: string, activityId: string, queue = 'kubeairunway-core') => ({
  activityTaskScheduledEventAttributes: { activityType: { name }, activityId, taskQueue: { name: queue } },
});

describe('buildTimeline', () => {
  const run1 = events(
    [0, started()],
    [0, { workflowExecutionSignaledEventAttributes: { signalName: 'reconcile', input: payloads({ reason: 'changed', generation: 1 }) } }],
    [0.1, scheduled('readDeployment', '1')],
    [0.15, { activityTaskStartedEventAttributes: { scheduledEventId: 3, attempt: 1 } }],
    [0.2, { activityTaskCompletedEventAttributes: { scheduledEventId: 3, result: payloads({ uid: 'u', generation: 1, paused: false }) } }],
    [0.3, scheduled('selectProvider', '2')],
    [0.35, { activityTaskStartedEventAttributes: { scheduledEventId: 6, attempt: 1 } }],
    [0.5, { activityTaskCompletedEventAttributes: { scheduledEventId: 6, result: payloads({ provider: 'acme', reason: 'explicit provider selection', rejected: [] }) } }],
    [0.6, scheduled('reconcileResource', '3', 'kubeairunway-provider-acme')],
    [3.6, {
      activityTaskStartedEventAttributes: {
        scheduledEventId: 9,
        attempt: 3,
        lastFailure: { message: 'apply AcmeInference: connection refused', applicationFailureInfo: { type: 'KubeUnavailable' } },
      },
    }],
    [3.8, { activityTaskFailedEventAttributes: { scheduledEventId: 9, failure: { message: 'apply AcmeInference: forbidden', applicationFailureInfo: { type: 'KubeForbidden' } } } }],
    [3.9, { timerStartedEventAttributes: { timerId: '1' } }],
    [8.9, { timerFiredEventAttributes: { timerId: '1', startedEventId: 12 } }],
    [9, { workflowExecutionContinuedAsNewEventAttributes: { newExecutionRunId: 'run-2' } }],
  );
  const run2 = events(
    [9, started('run-1')],
    [10, { workflowExecutionUpdateAcceptedEventAttributes: { protocolInstanceId: 'u1', acceptedRequest: { input: { name: 'retry' } } } }],
    [10.1, scheduled('reconcileResource', '1', 'kubeairunway-provider-acme')],
    [10.2, { activityTaskStartedEventAttributes: { scheduledEventId: 3, attempt: 1 } }],
    [10.4, { activityTaskCompletedEventAttributes: { scheduledEventId: 3, result: payloads({ compatibility: { compatible: true, errors: [], warnings: [] }, apply: { result: 'created', resource: { kind: 'AcmeInference', name: 'llama' } }, observed: { phase: 'Deploying', ready: false } }) } }],
    [10.5, {
      workflowExecutionUpdateCompletedEventAttributes: {
        acceptedEventId: 2,
        outcome: { success: payloads({ retried: 'apply', previousError: { type: 'KubeForbidden' }, outcome: 'succeeded' }) },
      },
    }],
    [11, scheduled('cleanupResources', '2', 'kubeairunway-provider-acme')],
  );
  const pending = new Map([['2', { attempt: 4, lastFailure: failure({ message: 'read: timeout', applicationFailureInfo: { type: 'KubeUnavailable' } }) }]]);
  const timeline = buildTimeline([{ runId: 'run-1', events: run1 }, { runId: 'run-2', events: run2, pending }], Date.parse('2025-03-01T10:00:21Z'));
  const byStep = (step: string, run = 1) => timeline.find((e) => e.step === step && e.run === run);

  it('lists the steps in order across runs, with what woke each pass', () => {
    expect(timeline.map((e) => `${e.run} ${e.step}`)).toEqual([
      '1 workflow started',
      '1 signal reconcile',
      '1 readDeployment',
      '1 selectProvider',
      '1 reconcileResource',
      '1 timer',
      '1 continued as new',
      '2 run continued',
      '2 update retry',
      '2 reconcileResource',
      '2 cleanupResources',
    ]);
    expect(byStep('signal reconcile')?.detail).toBe('changed, generation 1');
    expect(byStep('timer')).toMatchObject({ outcome: 'fired', durationMs: 5000 });
    expect(byStep('continued as new')?.detail).toBe('next run run-2');
  });

  it('gives each step its time, duration, outcome and what it did', () => {
    expect(byStep('readDeployment')).toMatchObject({ time: '2025-03-01T10:00:00.100Z', durationMs: 100, outcome: 'completed', attempts: 1, error: null, kind: 'step' });
    expect(byStep('selectProvider')?.detail).toBe("selected 'acme' (explicit provider selection)");
    expect(byStep('reconcileResource', 2)).toMatchObject({ outcome: 'completed', detail: "created AcmeInference 'llama'; phase Deploying", taskQueue: 'kubeairunway-provider-acme' });
  });

  it('reports a failed step with its failure type and attempts', () => {
    expect(byStep('reconcileResource')).toMatchObject({ outcome: 'failed', attempts: 3, durationMs: 3200, error: 'KubeForbidden: apply AcmeInference: forbidden' });
  });

  it('summarizes the retry update', () => {
    expect(byStep('update retry', 2)).toMatchObject({ kind: 'update', outcome: 'completed', durationMs: 500, detail: 'retried apply; succeeded' });
  });

  it('shows a step still running with its current attempt and last failure', () => {
    expect(byStep('cleanupResources', 2)).toMatchObject({ outcome: 'running', durationMs: 10_000, attempts: 4, error: 'KubeUnavailable: read: timeout' });
  });

  it('counts problems reported by completed steps as errors', () => {
    const t = buildTimeline([
      {
        runId: 'r',
        events: events(
          [0, scheduled('validateDeployment', '1')],
          [0.1, { activityTaskCompletedEventAttributes: { scheduledEventId: 1, result: payloads({ valid: false, message: "Provider 'acme' CRD not installed in cluster" }) } }],
        ),
      },
    ]);
    expect(t[0]).toMatchObject({ outcome: 'completed', error: "ValidationFailed: Provider 'acme' CRD not installed in cluster" });
    // Said once: the error carries the message, the detail does not repeat it.
    expect(t[0]?.detail).toBeNull();
  });

  it('names a timer by its summary, and an unnamed one as the wait for the next check', () => {
    const t = buildTimeline([
      {
        runId: 'r',
        events: events(
          [0, { timerStartedEventAttributes: { timerId: '1' }, userMetadata: { summary: defaultPayloadConverter.toPayload('recorded the cleanup before completing') } }],
          [0.01, { timerFiredEventAttributes: { timerId: '1' } }],
          [1, { timerStartedEventAttributes: { timerId: '2' } }],
          [6, { timerFiredEventAttributes: { timerId: '2' } }],
        ),
      },
    ]);
    expect(t.map((e) => [e.step, e.detail, e.durationMs])).toEqual([
      ['timer', 'recorded the cleanup before completing', 10],
      ['timer', 'waited for the next check', 5000],
    ]);
  });
});

describe('buildTimeline with local activities', () => {
  const seconds = (at: number) => ({ seconds: T0 + Math.floor(at), nanos: Math.round((at % 1) * 1e9) });
  const local = (type: string, doneAt: number, detail: Record<string, unknown>) => ({
    markerRecordedEventAttributes: {
      markerName: 'core_local_activity',
      details: { data: payloads({ seq: 1, attempt: 1, activity_type: type, complete_time: seconds(doneAt) }), ...detail },
    },
  });
  const run = events(
    [0, started()],
    [0.01, { workflowTaskStartedEventAttributes: {} }],
    [0.2, { workflowTaskCompletedEventAttributes: {} }],
    [0.2, local('readDeployment', 0.03, { result: payloads({ uid: 'u', generation: 1, paused: false, selectedProvider: 'acme' }) })],
    [0.2, local('selectProvider', 0.08, { result: payloads({ provider: 'acme', reason: 'explicit provider selection', rejected: [] }) })],
    [0.2, {
      markerRecordedEventAttributes: {
        markerName: 'core_local_activity',
        details: { data: payloads({ attempt: 5, activity_type: 'writeCoreStatus', complete_time: seconds(0.19) }) },
        failure: { message: 'forbidden', applicationFailureInfo: { type: 'KubeForbidden' } },
      },
    }],
    [0.2, scheduled('reconcileResource', '4', 'kubeairunway-provider-acme')],
  );
  const timeline = buildTimeline([{ runId: 'r', events: run }], Date.parse('2025-03-01T10:00:01Z'));

  it('lists each local activity as a step of the core queue, timed from the step before it in its workflow task', () => {
    const steps = timeline.filter((e) => e.kind === 'step');
    expect(steps.map((e) => e.step)).toEqual(['readDeployment', 'selectProvider', 'writeCoreStatus', 'reconcileResource']);
    expect(steps[0]).toMatchObject({ outcome: 'completed', durationMs: 20, taskQueue: 'kubeairunway-core', time: '2025-03-01T10:00:00.010Z' });
    expect(steps[1]).toMatchObject({ durationMs: 50, detail: "selected 'acme' (explicit provider selection)", time: '2025-03-01T10:00:00.030Z' });
    expect(steps[2]).toMatchObject({ outcome: 'failed', attempts: 5, error: 'KubeForbidden: forbidden' });
    expect(steps[3]).toMatchObject({ outcome: 'running', taskQueue: 'kubeairunway-provider-acme' });
  });
});

describe('describeFailure', () => {
  it('explains a schedule-to-start timeout as a provider nobody serves', () => {
    expect(describeFailure(failure({ message: 'activity timeout', timeoutFailureInfo: { timeoutType: 2 } }), 'kubeairunway-provider-acme')).toBe(
      'ProviderUnavailable: no worker picked the step up from task queue kubeairunway-provider-acme in time',
    );
    expect(describeFailure(failure({ message: 'activity timeout', timeoutFailureInfo: { timeoutType: 1 } }))).toBe('Timeout:START_TO_CLOSE: activity timeout');
  });

  it('looks through a wrapper without a type to its cause', () => {
    expect(describeFailure(failure({ message: 'Activity task failed', cause: { message: 'nope', applicationFailureInfo: { type: 'KubeInvalid' } } }))).toBe('KubeInvalid: nope');
    expect(describeFailure(undefined)).toBeNull();
  });
});
