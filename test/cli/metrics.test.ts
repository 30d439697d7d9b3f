// `kubeairunway run`: the metrics endpoint exposes the seed's metrics with values after deployments,
// step logs carry namespace, name and workflow ID, and the real command stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import type { InferenceProviderConfig, ModelDeployment } from '../../api/types.ts';
import type { RunOptions, RunningController } from '../../cli/operator/run-controller.ts';
import { startRun } from '../../cli/operator/run-controller.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { createLogger } from '../../observability/logger.ts';
import { METRIC_NAMES } from '../../observability/metrics.ts';
import { workflowBundle } from '../support/controller.ts';
import { createDeployment, example, phaseIs, waitForDeployment } from '../support/deployments.ts';
import { eventually, stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

function runOptions(overrides: Partial<RunOptions>): RunOptions {
  const info = stackInfo();
  return {
    kubeconfig: info.kubeconfigPath,
    temporalAddress: info.temporalAddress,
    temporalNamespace: info.temporalNamespace,
    enableProviderSelector: true,
    taskQueuePrefix: uniqueName('kar'),
    resyncPeriod: '1m',
    cleanupTimeout: '20s',
    metrics: true,
    metricsPort: '0',
    metricsAddress: '127.0.0.1',
    webhookHost: '127.0.0.1',
    webhookPort: '0',
    webhookNamespace: 'kubeairunway-system',
    webhookRegister: false,
    logLevel: 'debug',
    ...overrides,
  };
}

/** The value of one sample in the Prometheus text format, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : undefined;
}

describe('kubeairunway run: metrics and logs', () => {
  let kube: TestKube;
  let running: RunningController;
  const simulators: Simulator[] = [];
  const logs: Record<string, unknown>[] = [];
  const llama = uniqueName('llama');
  const wrong = uniqueName('wrong');

  beforeAll(async () => {
    kube = await testKube('cli-metrics');
    const logger = createLogger({ level: 'debug', destination: { write: (line: string) => void logs.push(JSON.parse(line)) } });
    running = await startRun(runOptions({ namespaces: kube.namespace }), { io: { readFile: async () => '' }, logger, workflowBundle: await workflowBundle(), heartbeatMs: 2_000 });
    for (const script of UPSTREAM_SCRIPTS) simulators.push(await startSimulator(kube.kc, script, { readyAfterMs: 1_000 }));
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = llama)));
    // KAITO cannot serve sglang: a reconciliation error of a known type.
    await createDeployment({
      apiVersion: API_VERSION,
      kind: MODEL_DEPLOYMENT_KIND,
      metadata: { name: wrong, namespace: kube.namespace },
      spec: { model: { id: 'Qwen/Qwen2.5-0.5B-Instruct', source: 'huggingface' }, engine: { type: 'sglang' }, provider: { name: 'kaito' }, resources: { gpu: { count: 1 } } },
    } as ModelDeployment);
    await waitForDeployment(kube.namespace, llama, 'Running', phaseIs('Running'));
    await waitForDeployment(kube.namespace, wrong, 'Failed', phaseIs('Failed'));
  });
  afterAll(async () => {
    await Promise.all(simulators.map((s) => s.stop()));
    await running?.stop();
    await kube?.cleanup();
  });

  it('the metrics endpoint exposes the seed metric names with values after a deployment', async () => {
    const ns = kube.namespace;
    const text = await eventually('metrics with values', async () => {
      const body = await (await fetch(running.metricsUrl!)).text();
      return sample(body, METRIC_NAMES.deploymentPhase, { name: llama, namespace: ns, phase: 'Running' }) === 1 ? body : undefined;
    });
    for (const name of Object.values(METRIC_NAMES)) expect(text, name).toContain(`# TYPE ${name} `);

    expect(sample(text, METRIC_NAMES.modelDeploymentTotal, { namespace: ns, phase: 'Running' })).toBe(1);
    expect(sample(text, METRIC_NAMES.modelDeploymentTotal, { namespace: ns, phase: 'Failed' })).toBe(1);
    expect(sample(text, METRIC_NAMES.modelDeploymentTotal, { namespace: ns, phase: 'Pending' })).toBe(0);
    expect(sample(text, METRIC_NAMES.deploymentPhase, { name: llama, namespace: ns, phase: 'Deploying' })).toBe(0);
    expect(sample(text, METRIC_NAMES.deploymentPhase, { name: wrong, namespace: ns, phase: 'Failed' })).toBe(1);
    expect(sample(text, METRIC_NAMES.deploymentReplicas, { name: llama, namespace: ns, state: 'desired' })).toBe(1);
    expect(sample(text, METRIC_NAMES.deploymentReplicas, { name: llama, namespace: ns, state: 'ready' })).toBe(1);
    expect(sample(text, METRIC_NAMES.providerSelection, { provider: 'dynamo', reason: 'matched capabilities: engine=vllm, gpu=true, mode=aggregated' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, METRIC_NAMES.providerSelection, { provider: 'kaito', reason: 'explicit provider selection' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, `${METRIC_NAMES.reconciliationDuration}_count`, { provider: 'dynamo' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, `${METRIC_NAMES.reconciliationDuration}_sum`, { provider: 'dynamo' })).toBeGreaterThan(0);
    expect(sample(text, METRIC_NAMES.reconciliationErrors, { provider: 'kaito', error_type: 'IncompatibleConfiguration' })).toBeGreaterThanOrEqual(1);
    // Node.js process metrics come along for the operator's dashboards.
    expect(text).toContain('# TYPE process_cpu_user_seconds_total counter');
  });

  it('step logs are JSON lines carrying namespace, name and workflow ID', () => {
    const applied = logs.find((l) => l.activity === 'reconcileResource' && l.name === llama && typeof l.msg === 'string' && l.msg.startsWith('reconcileResource: created'));
    expect(applied).toMatchObject({
      level: 30,
      component: 'kubeairunway',
      // Run by the core worker: the provider runs in its process and is called as a local activity.
      source: 'core',
      namespace: kube.namespace,
      name: llama,
      workflowId: expect.stringMatching(new RegExp(`^modeldeployment/${kube.namespace}/${llama}/`)),
      provider: 'dynamo',
      result: 'created',
      msg: expect.stringMatching(new RegExp(`^reconcileResource: created DynamoGraphDeployment '${llama}'; phase `)),
    });
    expect(logs.find((l) => l.activity === 'reconcileResource' && l.name === wrong)).toMatchObject({ level: 40, errorType: 'IncompatibleConfiguration', msg: 'reconcileResource: KAITO does not support sglang engine' });
    expect(logs.find((l) => l.msg === 'kubeairunway controller running')).toMatchObject({ core: true, watcher: true, providers: ['deployment', 'dynamo', 'kaito', 'kuberay'], namespaces: [kube.namespace], metrics: running.metricsUrl });
    expect(typeof logs[0]?.time).toBe('string');
  });
});

describe('kubeairunway run --webhook', () => {
  it('runs the admission webhook alone, without Temporal', async () => {
    const kube = await testKube('cli-webhook');
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({ destination: { write: (line: string) => void lines.push(JSON.parse(line)) } });
    // Nothing listens on port 1: any Temporal connection attempt would fail the start.
    const running = await startRun(runOptions({ webhook: true, metrics: false, webhookNamespace: kube.namespace, temporalAddress: '127.0.0.1:1' }), { io: { readFile: async () => '' }, logger });
    try {
      expect(running.controller).toBeUndefined();
      expect(running.metricsUrl).toBeUndefined();
      expect(running.webhookUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(lines.find((l) => l.msg === 'kubeairunway controller running')).toMatchObject({ core: false, watcher: false, providers: [], webhook: running.webhookUrl });
      expect(lines.some((l) => l.source === 'webhook' && l.msg === 'admission webhook serving')).toBe(true);
    } finally {
      await running.stop();
      await kube.cleanup();
    }
  });
});

describe('kubeairunway run as a process', () => {
  let kube: TestKube;
  beforeAll(async () => {
    kube = await testKube('cli-run');
  });
  afterAll(async () => {
    await kube?.cleanup();
  });

  it('runs until SIGTERM, serving metrics, then stops cleanly and marks its providers not ready', async () => {
    const info = stackInfo();
    const child = spawn(
      process.execPath,
      [
        join(REPO_ROOT, 'bin', 'kubeairunway.js'),
        'run',
        '--core',
        '--watcher',
        '--providers',
        'kaito',
        '--namespaces',
        kube.namespace,
        '--task-queue-prefix',
        uniqueName('kar'),
        '--metrics-port',
        '0',
        '--metrics-address',
        '127.0.0.1',
        '--kubeconfig',
        info.kubeconfigPath,
        '--temporal-address',
        info.temporalAddress,
        '--temporal-namespace',
        info.temporalNamespace,
      ],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines: Record<string, unknown>[] = [];
    let stderr = '';
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const part of parts) if (part.trim()) lines.push(JSON.parse(part));
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const started = await eventually(
        'the controller to run',
        async () => {
          if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}: ${stderr}`);
          return lines.find((l) => l.msg === 'kubeairunway controller running');
        },
        120_000,
      );
      expect(started).toMatchObject({ core: true, watcher: true, providers: ['kaito'], providerSelector: true });
      const metrics = await fetch(started.metrics as string);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toContain(`# TYPE ${METRIC_NAMES.modelDeploymentTotal} gauge`);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(['stopping', 'stopped']));
      const kaito = (await new CustomObjects(kube.kc).get({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name: 'kaito' })) as unknown as InferenceProviderConfig;
      expect(kaito.status?.ready).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
