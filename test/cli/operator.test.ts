// status, history, pause and resume against real deployments on the local stack, through the same
// in-process CLI a user runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentStatus } from '../../kinds/model-deployment/status.ts';
import type { HistoryReport } from '../../cli/operator/history-format.ts';
import type { PauseReport } from '../../cli/operator/pause.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { condition, createDeployment, deleteDeployment, example, getDeployment, phaseIs, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { json, kubeairunway } from './cli.ts';

describe('kubeairunway status, history, pause and resume', () => {
  let kube: TestKube;
  let ctl: TestController;
  let running: ModelDeployment;
  const name = uniqueName('llama');

  beforeAll(async () => {
    kube = await testKube('cli-ops');
    // A short history limit makes the workflow continue as new within the test, so history must follow the runs.
    ctl = await startTestController({ namespaces: [kube.namespace], settings: { maxHistoryEvents: 20 } });
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = name)));
    running = await waitForDeployment(kube.namespace, name, 'Running', phaseIs('Running'));
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  it('status agrees with the object', async () => {
    const result = await kubeairunway(['status', `${kube.namespace}/${name}`, '-o', 'json']);
    expect(result.code).toBe(0);
    const status = json<DeploymentStatus>(result);
    expect(status).toMatchObject({
      namespace: kube.namespace,
      name,
      uid: running.metadata.uid,
      phase: running.status?.phase,
      provider: running.status?.provider?.name,
      replicas: { ready: running.status?.replicas?.ready, desired: running.status?.replicas?.desired },
      paused: false,
      step: 'idle',
      lastError: null,
      workflow: { id: `modeldeployment/${kube.namespace}/${name}/${running.metadata.uid}`, status: 'RUNNING', source: 'query', note: null },
    });
    expect(status.provider).toBe('dynamo');
    expect(status.age).toMatch(/^\d+s$/);
  });

  it('status prints a table of the namespace, and one deployment as fields', async () => {
    const table = await kubeairunway(['status', '-n', kube.namespace]);
    expect(table.code).toBe(0);
    const [header, row, ...rest] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^NAMESPACE\s+NAME\s+PHASE\s+PROVIDER\s+READY\s+STEP\s+AGE\s+LAST ERROR$/);
    expect(row!.split(/\s{3,}/)).toEqual([kube.namespace, name, 'Running', 'dynamo', '1/1', 'idle', expect.stringMatching(/^\d+s$/), '<none>']);
    expect(rest).toEqual([]);

    const detail = await kubeairunway(['status', name, '-n', kube.namespace]);
    expect(detail.stdout).toContain(`Name:        ${kube.namespace}/${name}`);
    expect(detail.stdout).toContain('Provider:    dynamo');
    expect(detail.stdout).toContain('Ready:       1/1');

    const yaml = await kubeairunway(['status', '-n', kube.namespace, '-o', 'yaml']);
    expect(yaml.stdout).toContain(`- namespace: ${kube.namespace}\n  name: ${name}\n`);
  });

  it('status still shows the cluster side when Temporal cannot be reached, and says so', async () => {
    const result = await kubeairunway(['status', `${kube.namespace}/${name}`, '-o', 'json', '--temporal-address', '127.0.0.1:1']);
    expect(result.code).toBe(0);
    const status = json<DeploymentStatus>(result);
    expect(status).toMatchObject({ phase: 'Running', provider: 'dynamo', step: null, workflow: { status: 'UNKNOWN', source: 'none' } });
    expect(status.workflow.note).toMatch(/^Cannot reach the Temporal server at 127\.0\.0\.1:1: .*; steps and errors are unknown$/);
  });

  it('status of a missing deployment is one sentence and exit code 1', async () => {
    const result = await kubeairunway(['status', `${kube.namespace}/nope`]);
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: `error: ModelDeployment ${kube.namespace}/nope not found.\n` });
  });

  it('history shows the steps of the deployment, in order, with the Temporal UI link', async () => {
    const result = await kubeairunway(['history', `${kube.namespace}/${name}`, '-o', 'json']);
    expect(result.code).toBe(0);
    const report = json<HistoryReport>(result);
    expect(report.workflowId).toBe(`modeldeployment/${kube.namespace}/${name}/${running.metadata.uid}`);
    expect(report.ui.run).toContain(`/workflows/${encodeURIComponent(report.workflowId)}/`);

    const steps = report.timeline.filter((e) => e.kind === 'step');
    const first = (step: string) => steps.findIndex((e) => e.step === step);
    // The core's read, finalizer, validation and selection are one local activity, the provider's
    // compatibility, apply and observe one call (a local activity too: the provider runs in the core's
    // process); the core's status write follows it.
    const reconcile = 'dynamo:reconcileResource';
    for (const step of ['assessDeployment', 'writeCoreStatus', reconcile]) expect(first(step), step).toBeGreaterThanOrEqual(0);
    expect(first('assessDeployment')).toBeLessThan(first(reconcile));
    expect(first('assessDeployment')).toBeLessThan(first('writeCoreStatus'));
    for (const step of steps) {
      expect(step.time).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(step.durationMs).toBeGreaterThanOrEqual(0);
      if (step.outcome !== 'running') expect(step.outcome).toBe('completed');
    }
    expect(steps.find((e) => e.step === 'assessDeployment')?.detail).toBe("finalizer added; selected 'dynamo' (matched capabilities: engine=vllm, gpu=true, mode=aggregated)");
    expect(steps.find((e) => e.step === reconcile && e.detail?.startsWith('created'))?.detail).toMatch(new RegExp(`^created DynamoGraphDeployment '${name}'; phase `));
    expect(steps.find((e) => e.step === reconcile)?.taskQueue).toBe(`${ctl.taskQueuePrefix}-core`);
    expect(steps.find((e) => e.step === 'assessDeployment')?.taskQueue).toBe(`${ctl.taskQueuePrefix}-core`);
    expect(report.timeline[0]).toMatchObject({ kind: 'workflow', step: 'workflow started', run: 1 });
    expect(report.timeline.some((e) => e.kind === 'signal' && e.step === 'signal reconcile')).toBe(true);

    const table = await kubeairunway(['history', `${kube.namespace}/${name}`]);
    expect(table.stdout).toContain(`Temporal UI: http://127.0.0.1:8233/namespaces/default/workflows/${encodeURIComponent(report.workflowId)}/`);
    expect(table.stdout).toMatch(/\nTIME\s+RUN\s+STEP\s+DURATION\s+OUTCOME\s+DETAIL\n/);
    expect(table.stdout).toMatch(/dynamo:reconcileResource\s+\S+\s+completed\s+created DynamoGraphDeployment/);
  });

  it('pause and resume set the annotation and wait for the controller; history follows the runs they cause', async () => {
    const paused = await kubeairunway(['pause', `${kube.namespace}/${name}`, '-o', 'json']);
    expect(paused.code).toBe(0);
    expect(json<PauseReport>(paused)).toEqual({ kind: 'ModelDeployment', deployment: { namespace: kube.namespace, name }, paused: true, changed: true, acknowledged: true });
    expect(paused.stderr).toContain(`Waiting for the controller to pause ${kube.namespace}/${name} ...`);
    const md = await getDeployment(kube.namespace, name);
    expect(md?.metadata.annotations?.['kubeairunway.ai/reconcile-paused']).toBe('true');
    expect(condition(md!, 'ReconcilePaused')?.status).toBe('True');

    const again = await kubeairunway(['pause', `${kube.namespace}/${name}`, '--no-wait']);
    expect(again.stdout).toContain(`${kube.namespace}/${name} was already paused`);

    const status = json<DeploymentStatus>(await kubeairunway(['status', `${kube.namespace}/${name}`, '-o', 'json']));
    expect(status).toMatchObject({ paused: true, step: 'paused', waitingFor: 'the pause annotation to be removed' });

    const resumed = await kubeairunway(['resume', `${kube.namespace}/${name}`]);
    expect(resumed).toMatchObject({ code: 0, stdout: `Resumed ${kube.namespace}/${name}: the controller reconciles it again, catching up with any change made meanwhile.\n` });
    const after = await getDeployment(kube.namespace, name);
    expect(after?.metadata.annotations?.['kubeairunway.ai/reconcile-paused']).toBeUndefined();
    expect(condition(after!, 'ReconcilePaused')).toBeUndefined();

    // Each pass adds events; with the short limit the workflow has continued as new by now.
    const report = json<HistoryReport>(await kubeairunway(['history', `${kube.namespace}/${name}`, '-o', 'json']));
    expect(report.runs.length).toBeGreaterThan(1);
    expect(report.timeline.some((e) => e.step === 'continued as new')).toBe(true);
    expect(report.timeline.some((e) => e.step === 'run continued' && e.run > 1)).toBe(true);
    expect(report.timeline.filter((e) => e.kind === 'step').map((e) => e.run).at(-1)).toBe(report.runs.length);
    const one = json<HistoryReport>(await kubeairunway(['history', `${kube.namespace}/${name}`, '-o', 'json', '--runs', '1']));
    expect(one.runs).toHaveLength(1);
    expect(one.olderRunsOmitted).toBe(true);
  });

  it('history of a deleted deployment is found by name and ends with its cleanup', async () => {
    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name);
    const report = await eventually('the completed workflow in the history', async () => {
      const result = await kubeairunway(['history', `${kube.namespace}/${name}`, '-o', 'json']);
      const r = result.code === 0 ? json<HistoryReport>(result) : undefined;
      return r?.status === 'COMPLETED' ? r : undefined;
    });
    expect(report.deployment).toEqual({ namespace: kube.namespace, name, uid: running.metadata.uid, exists: false });
    const steps = report.timeline.map((e) => e.step);
    // The provider runs in process: its cleanup is a local activity named after it, as its reconcile is.
    expect(steps.lastIndexOf('dynamo:cleanupResources')).toBeGreaterThan(steps.lastIndexOf('dynamo:reconcileResource'));
    expect(steps.lastIndexOf('removeFinalizer')).toBeGreaterThan(steps.lastIndexOf('dynamo:cleanupResources'));
    expect(report.timeline.at(-2)).toMatchObject({ kind: 'timer', detail: 'recorded the cleanup before completing' });
    expect(report.timeline.at(-1)).toMatchObject({ kind: 'workflow', step: 'workflow completed', detail: 'the deployment is gone' });
    const text = await kubeairunway(['history', `${kube.namespace}/${name}`]);
    expect(text.stdout.split('\n')[0]).toBe(`ModelDeployment ${kube.namespace}/${name} (uid ${running.metadata.uid}) — deleted`);
  });
});
