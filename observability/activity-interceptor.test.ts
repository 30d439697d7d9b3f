import type { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { describe, expect, it, onTestFinished } from 'vitest';
import { STEP_OUTCOMES } from '../kinds/index.ts';
import { failureType, stepObserver } from './activity-interceptor.ts';
import { createLogger } from './logger.ts';
import { createMetrics, METRIC_NAMES } from './metrics.ts';

const ref = { namespace: 'team-a', name: 'llama', uid: 'u1' };

function harness(provider?: string) {
  const metrics = createMetrics();
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({ level: 'debug', destination: { write: (s: string) => void lines.push(JSON.parse(s)) } });
  let clock = 0;
  const factory = stepObserver({ outcomes: STEP_OUTCOMES, metrics, logger, provider, now: () => clock });
  const run = async (activity: string, result: unknown, opts: { workflowId?: string; tookMs?: number; fail?: unknown } = {}) => {
    const ctx = { info: { activityType: activity, attempt: 1, workflowExecution: { workflowId: opts.workflowId ?? 'modeldeployment/team-a/llama/u1', runId: 'r1' } } } as unknown as Context;
    const inbound = factory(ctx).inbound!;
    return inbound.execute!({ args: [ref], headers: {} }, async () => {
      clock += opts.tookMs ?? 0;
      if (opts.fail) throw opts.fail;
      return result;
    });
  };
  const value = async (name: string, labels: Record<string, string>) => {
    const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
    const match = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
    return match?.value;
  };
  return { metrics, lines, run, value };
}

describe('failureType', () => {
  it('is the ApplicationFailure type, else the error name', () => {
    expect(failureType(ApplicationFailure.create({ type: 'KubeForbidden', message: 'no' }))).toBe('KubeForbidden');
    expect(failureType(new TypeError('x'))).toBe('TypeError');
    expect(failureType('boom')).toBe('Error');
  });
});

describe('stepObserver on the core worker', () => {
  it('counts failures under the provider learned from earlier steps, and rethrows', async () => {
    const h = harness();
    await h.run('readDeployment', { uid: 'u1', generation: 1, selectedProvider: 'kaito', paused: false });
    const failure = ApplicationFailure.create({ type: 'KubeForbidden', message: 'write status: forbidden', nonRetryable: true });
    await expect(h.run('writeCoreStatus', undefined, { fail: failure })).rejects.toBe(failure);
    expect(await h.value(METRIC_NAMES.reconciliationErrors, { provider: 'kaito', error_type: 'KubeForbidden' })).toBe(1);
  });

  it('labels failures of a deployment with no provider yet as none', async () => {
    const h = harness();
    await expect(h.run('readDeployment', undefined, { workflowId: 'other', fail: ApplicationFailure.create({ type: 'KubeUnavailable', message: 'down' }) })).rejects.toThrow('down');
    expect(await h.value(METRIC_NAMES.reconciliationErrors, { provider: 'none', error_type: 'KubeUnavailable' })).toBe(1);
  });

  it('counts selections and reported problems', async () => {
    const h = harness();
    await h.run('selectProvider', { provider: 'dynamo', reason: 'explicit provider selection', message: undefined, rejected: [] });
    await h.run('validateDeployment', { valid: false, message: 'engine.type is required', warnings: [] });
    expect(await h.value(METRIC_NAMES.providerSelection, { provider: 'dynamo', reason: 'explicit provider selection' })).toBe(1);
    expect(await h.value(METRIC_NAMES.reconciliationErrors, { provider: 'dynamo', error_type: 'ValidationFailed' })).toBe(1);
  });

  it("observes an in-process provider's call (dynamo:reconcileResource) as the provider's own worker would", async () => {
    const h = harness();
    const outcome = { compatibility: { compatible: false, errors: ['KAITO does not support sglang engine'], warnings: [] }, apply: undefined, observed: { phase: 'Failed', message: 'x', ready: false } };
    await h.run('dynamo:reconcileResource', outcome, { tookMs: 40 });
    expect(await h.value(METRIC_NAMES.reconciliationErrors, { provider: 'dynamo', error_type: 'IncompatibleConfiguration' })).toBe(1);
    const histogram = (await h.metrics.registry.getMetricsAsJSON()).find((m) => m.name === METRIC_NAMES.reconciliationDuration);
    expect(histogram?.values.find((v) => (v as { metricName?: string }).metricName === `${METRIC_NAMES.reconciliationDuration}_count`)?.labels).toMatchObject({ provider: 'dynamo' });
    expect(h.lines.at(-1)).toMatchObject({ activity: 'reconcileResource', provider: 'dynamo' });
  });

  it('does not count a cancellation (worker shutdown) as an error', async () => {
    const h = harness();
    await expect(h.run('readDeployment', undefined, { fail: new CancelledFailure('shutdown') })).rejects.toThrow('shutdown');
    const errors = (await h.metrics.registry.getMetricsAsJSON()).find((m) => m.name === METRIC_NAMES.reconciliationErrors);
    expect(errors?.values).toEqual([]);
  });

  it('logs JSON lines carrying namespace, name and workflow ID; reads at debug, writes at info, failures at warn', async () => {
    const h = harness();
    await h.run('readDeployment', { uid: 'u1', generation: 1, paused: false });
    await h.run('addFinalizer', undefined);
    await expect(h.run('recordEvent', undefined, { fail: ApplicationFailure.create({ type: 'KubeInvalid', message: 'bad event' }) })).rejects.toThrow();
    expect(h.lines.map((l) => [l.level, l.msg])).toEqual([
      [20, 'readDeployment done'],
      [30, 'addFinalizer done'],
      [40, 'recordEvent failed'],
    ]);
    for (const line of h.lines) expect(line).toMatchObject({ namespace: 'team-a', name: 'llama', workflowId: 'modeldeployment/team-a/llama/u1', runId: 'r1', component: 'kubeairunway' });
    expect(h.lines[2]).toMatchObject({ errorType: 'KubeInvalid', err: 'bad event', activity: 'recordEvent', attempt: 1 });
  });
});

describe('stepObserver on a provider worker', () => {
  it('observes one reconciliation as its reconcileResource call', async () => {
    const h = harness('kaito');
    const created = { result: 'created', resource: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'llama' }, identityChanges: [], warnings: [] };
    const reconciled = { compatibility: { compatible: true, errors: [], warnings: [] }, apply: created, observed: { phase: 'Deploying', message: undefined, ready: false } };
    await h.run('reconcileResource', reconciled, { tookMs: 600 });
    const histogram = (await h.metrics.registry.getMetricsAsJSON()).find((m) => m.name === METRIC_NAMES.reconciliationDuration);
    const sum = histogram?.values.find((v) => (v as { metricName?: string }).metricName === `${METRIC_NAMES.reconciliationDuration}_sum`);
    const count = histogram?.values.find((v) => (v as { metricName?: string }).metricName === `${METRIC_NAMES.reconciliationDuration}_count`);
    expect(sum).toMatchObject({ labels: { provider: 'kaito' }, value: 0.6 });
    expect(count?.value).toBe(1);
    expect(h.lines.find((l) => l.activity === 'reconcileResource')).toMatchObject({ level: 30, msg: "reconcileResource: created Workspace 'llama'; phase Deploying", provider: 'kaito', result: 'created' });
  });

  it('labels its failures with its own provider', async () => {
    const h = harness('dynamo');
    await expect(h.run('reconcileResource', undefined, { fail: ApplicationFailure.create({ type: 'KubeForbidden', message: 'no' }) })).rejects.toThrow();
    const crdMissing = { result: 'crd-missing', resource: undefined, identityChanges: [], warnings: [] };
    await h.run('reconcileResource', { compatibility: { compatible: true, errors: [], warnings: [] }, apply: crdMissing, observed: { phase: 'Pending', message: undefined, ready: false } });
    expect(await h.value(METRIC_NAMES.reconciliationErrors, { provider: 'dynamo', error_type: 'KubeForbidden' })).toBe(1);
    expect(await h.value(METRIC_NAMES.reconciliationErrors, { provider: 'dynamo', error_type: 'CRDNotInstalled' })).toBe(1);
    expect(h.lines.at(-1)).toMatchObject({ level: 40, msg: 'reconcileResource: provider CRD not installed', errorType: 'CRDNotInstalled' });
  });
});

describe('temporalLogger', () => {
  it('writes SDK logs as pino lines with their metadata, and the provider workers\' expected warning at debug', async () => {
    const { temporalLogger } = await import('./logger.ts');
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ level: 'debug', destination: { write: (s: string) => void lines.push(JSON.parse(s)) } });
    const sdk = temporalLogger(logger);
    sdk.warn('Worker state changed', { taskQueue: 'q' });
    sdk.log('ERROR', 'boom');
    sdk.warn('No workflows registered, not polling for workflow tasks', { taskQueue: 'kubeairunway-provider-kaito' });
    expect(lines.map((l) => [l.level, l.msg, l.source])).toEqual([
      [40, 'Worker state changed', 'temporal-sdk'],
      [50, 'boom', 'temporal-sdk'],
      [20, 'No workflows registered, not polling for workflow tasks', 'temporal-sdk'],
    ]);
    expect(lines[0]).toMatchObject({ taskQueue: 'q' });
  });

  it('drops lines below the level without looking at their metadata (the SDK logs every task at DEBUG)', async () => {
    const { temporalLogger } = await import('./logger.ts');
    const { watchTemporalLink } = await import('./temporal-link.ts');
    // With a link registered, every line that gets through is checked for a lost connection.
    const link = watchTemporalLink({ address: '127.0.0.1:1', log: () => {} });
    onTestFinished(() => link.stop());
    const lines: unknown[] = [];
    const sdk = temporalLogger(createLogger({ level: 'info', destination: { write: (s: string) => void lines.push(s) } }));
    let reads = 0;
    const meta = {
      get activityType() {
        reads++;
        return 'readDeployment';
      },
    };
    sdk.debug('Activity completed', meta);
    sdk.trace('Activity started', meta);
    expect(lines).toEqual([]);
    expect(reads).toBe(0);
    sdk.info('Worker started', meta);
    expect(lines).toHaveLength(1);
  });
});
