// status, history, retry, pause and resume of a FlameCluster on the local stack, through the same
// in-process CLI a user runs: the commands take the kind from the target (or --kind) and read its
// object, workflow and history with that kind's collection, workflow ID and search attributes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { FLAME_API_VERSION, FLAME_CLUSTER_KIND, FLAME_CLUSTER_PLURAL, FLAME_GROUP, FLAME_VERSION } from '../../api/flame/constants.ts';
import type { FlameCluster } from '../../api/flame/types.ts';
import type { FlameClusterStatusRow } from '../../kinds/flame/status.ts';
import type { HistoryReport } from '../../cli/operator/history-format.ts';
import type { PauseReport } from '../../cli/operator/pause.ts';
import type { RetryReport } from '../../cli/operator/retry.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { json, kubeairunway } from './cli.ts';

describe('kubeairunway status, history, retry, pause and resume of a FlameCluster', () => {
  let kube: TestKube;
  let ctl: TestController;
  let objects: CustomObjects;
  let cluster: FlameCluster;
  const name = uniqueName('flame');
  const ref = () => ({ group: FLAME_GROUP, version: FLAME_VERSION, plural: FLAME_CLUSTER_PLURAL, namespace: kube.namespace, name });
  const get = async () => (await objects.get(ref())) as unknown as FlameCluster | undefined;
  const target = () => `fc/${kube.namespace}/${name}`;
  const workflowId = () => `flamecluster/${kube.namespace}/${name}/${cluster.metadata.uid}`;

  beforeAll(async () => {
    kube = await testKube('cli-flame');
    objects = new CustomObjects(kube.kc);
    // The pod-readiness simulator makes the cluster's pods Ready, so it reaches Running.
    ctl = await startTestController({ namespaces: [kube.namespace] });
    const body = {
      apiVersion: FLAME_API_VERSION,
      kind: FLAME_CLUSTER_KIND,
      metadata: { name, namespace: kube.namespace },
      spec: { sessionManager: { image: 'xflops/flame-session:v0.1.0' }, executorManager: { image: 'xflops/flame-executor:v0.1.0', replicas: 2 } },
    };
    await objects.apply(ref(), body as AnyObject, 'e2e-test');
    cluster = await eventually('the FlameCluster to be Running with 2 ready executors', async () => {
      const fc = await get();
      return fc?.status?.state === 'Running' && fc.status.executorManager?.ready === 2 ? fc : undefined;
    });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  it('status shows the cluster by kind/namespace/name: state, ready executors, step and workflow', async () => {
    const result = await kubeairunway(['status', target(), '-o', 'json']);
    expect(result.code).toBe(0);
    expect(json<FlameClusterStatusRow>(result)).toMatchObject({
      kind: 'FlameCluster',
      namespace: kube.namespace,
      name,
      uid: cluster.metadata.uid,
      state: 'Running',
      executors: { ready: 2, replicas: 2 },
      sessionManager: { ready: 1 },
      paused: false,
      step: 'idle',
      waitingFor: null,
      lastError: null,
      workflow: { id: workflowId(), status: 'RUNNING', source: 'query', note: null },
    });

    // The same object by its other names and by --kind.
    for (const argv of [['status', `FlameCluster/${kube.namespace}/${name}`], ['status', `${kube.namespace}/${name}`, '--kind', 'flameclusters'], ['status', name, '-n', kube.namespace, '--kind', 'fc']]) {
      const detail = await kubeairunway(argv);
      expect(detail.code, argv.join(' ')).toBe(0);
      expect(detail.stdout).toContain(`Name:              ${kube.namespace}/${name}\nState:             Running\n`);
      expect(detail.stdout).toContain('Executors:         2/2 ready\n');
      expect(detail.stdout).toContain(`Workflow:          ${workflowId()} (running)\n`);
    }
  });

  it('status --kind fc lists the FlameClusters of a namespace; without it, ModelDeployments as before', async () => {
    const table = await kubeairunway(['status', '--kind', 'fc', '-n', kube.namespace]);
    expect(table.code).toBe(0);
    const [header, row, ...rest] = table.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^NAMESPACE\s+NAME\s+STATE\s+EXECUTORS\s+STEP\s+WAITING FOR\s+AGE\s+LAST ERROR\s+WORKFLOW$/);
    expect(row!.split(/\s{3,}/)).toEqual([kube.namespace, name, 'Running', '2/2', 'idle', '<none>', expect.stringMatching(/^\d+s$/), '<none>', 'running']);
    expect(rest).toEqual([]);

    expect(await kubeairunway(['status', '-n', kube.namespace])).toMatchObject({ code: 0, stdout: '', stderr: `No ModelDeployments found in namespace ${kube.namespace}.\n` });
    expect(await kubeairunway(['status', `${kube.namespace}/${name}`])).toMatchObject({ code: 1, stderr: `error: ModelDeployment ${kube.namespace}/${name} not found.\n` });
    expect(await kubeairunway(['status', `fc/${kube.namespace}/nope`])).toMatchObject({ code: 1, stderr: `error: FlameCluster ${kube.namespace}/nope not found.\n` });
  });

  it('history shows the passes of the cluster, with the Temporal UI links of its workflow and kind', async () => {
    const result = await kubeairunway(['history', target(), '-o', 'json']);
    expect(result.code).toBe(0);
    const report = json<HistoryReport>(result);
    expect(report).toMatchObject({ kind: 'FlameCluster', deployment: { namespace: kube.namespace, name, uid: cluster.metadata.uid, exists: true }, workflowId: workflowId(), status: 'RUNNING' });
    expect(report.ui.run).toContain(`/workflows/${encodeURIComponent(workflowId())}/`);
    expect(decodeURIComponent(report.ui.byName)).toContain(`query=Kind = "FlameCluster" AND K8sNamespace = "${kube.namespace}" AND K8sName = "${name}"`);
    expect(report.timeline[0]).toMatchObject({ kind: 'workflow', step: 'workflow started', run: 1 });
    const steps = report.timeline.filter((e) => e.kind === 'step');
    const first = (step: string) => steps.findIndex((e) => e.step === step);
    expect(first('applyFlameCluster')).toBeGreaterThanOrEqual(0);
    expect(first('applyFlameCluster')).toBeLessThan(first('reportFlameStatus'));
    for (const step of steps) expect(step.outcome, step.step).toBe('completed');

    const text = await kubeairunway(['history', target(), '--steps']);
    expect(text.stdout.split('\n')[0]).toBe(`FlameCluster ${kube.namespace}/${name} (uid ${cluster.metadata.uid})`);
    expect(text.stdout).toMatch(/\nTIME\s+RUN\s+STEP\s+DURATION\s+OUTCOME\s+DETAIL\n/);
    expect(text.stdout).toMatch(/applyFlameCluster\s+\S+\s+completed/);
  });

  it('retry runs a fresh pass of an idle cluster through the same update as every kind', async () => {
    const result = await kubeairunway(['retry', target(), '-o', 'json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Retrying a reconciliation pass of flamecluster/${kube.namespace}/${name} (workflow ${workflowId()}) ...`);
    expect(json<RetryReport>(result)).toMatchObject({ kind: 'FlameCluster', deployment: { namespace: kube.namespace, name, uid: cluster.metadata.uid }, workflowId: workflowId(), retried: null, outcome: 'succeeded', now: { phase: 'Running' } });
    const history = json<HistoryReport>(await kubeairunway(['history', target(), '-o', 'json']));
    expect(history.timeline.some((e) => e.step === 'update retry' && e.detail === 'nothing to retry; succeeded')).toBe(true);
  });

  it("pause and resume set the annotation and wait for the workflow's view; a retry while paused is refused, saying why", async () => {
    const paused = await kubeairunway(['pause', target(), '-o', 'json']);
    expect(paused.code).toBe(0);
    expect(json<PauseReport>(paused)).toEqual({ kind: 'FlameCluster', deployment: { namespace: kube.namespace, name }, paused: true, changed: true, acknowledged: true });
    expect(paused.stderr).toContain(`Waiting for the controller to pause flamecluster/${kube.namespace}/${name} ...`);
    expect((await get())?.metadata.annotations?.[PAUSE_ANNOTATION]).toBe('true');
    const status = json<FlameClusterStatusRow>(await kubeairunway(['status', target(), '-o', 'json']));
    expect(status).toMatchObject({ paused: true, step: 'paused', waitingFor: 'the pause annotation to be removed' });

    const again = await kubeairunway(['pause', `${kube.namespace}/${name}`, '--kind', 'fc', '--no-wait']);
    expect(again.stdout).toBe(`flamecluster/${kube.namespace}/${name} was already paused: the controller leaves it and its pods, Services and ConfigMap as they are until \`kubeairunway resume flamecluster/${kube.namespace}/${name}\`.\n`);

    // The retry update's validator refuses it before it is accepted: a pass would change nothing while paused.
    const retry = await kubeairunway(['retry', target(), '-o', 'json']);
    expect(retry.code).toBe(1);
    expect(retry.stderr).toContain(`flamecluster/${kube.namespace}/${name} was not retried: reconciliation is paused by the kubeairunway.ai/reconcile-paused annotation`);

    const resumed = await kubeairunway(['resume', `flamecluster/${kube.namespace}/${name}`]);
    expect(resumed).toMatchObject({ code: 0, stdout: `Resumed flamecluster/${kube.namespace}/${name}: the controller reconciles it again, catching up with any change made meanwhile.\n` });
    expect((await get())?.metadata.annotations?.[PAUSE_ANNOTATION]).toBeUndefined();
    const after = json<FlameClusterStatusRow>(await kubeairunway(['status', target(), '-o', 'json']));
    expect(after.paused).toBe(false);
    expect(after.step).not.toBe('paused');
  });

  it('history of a deleted cluster is found by its kind, namespace and name', async () => {
    await objects.delete(ref());
    await eventually('the FlameCluster to be gone', async () => (await get()) === undefined);
    const report = await eventually('the completed workflow in the history', async () => {
      const result = await kubeairunway(['history', target(), '-o', 'json']);
      const r = result.code === 0 ? json<HistoryReport>(result) : undefined;
      return r?.status === 'COMPLETED' ? r : undefined;
    });
    expect(report).toMatchObject({ kind: 'FlameCluster', workflowId: workflowId(), deployment: { namespace: kube.namespace, name, uid: cluster.metadata.uid, exists: false } });
    expect(report.timeline.at(-1)).toMatchObject({ kind: 'workflow', step: 'workflow completed', detail: 'the FlameCluster is gone' });
    const text = await kubeairunway(['history', target()]);
    expect(text.stdout.split('\n')[0]).toBe(`FlameCluster ${kube.namespace}/${name} (uid ${cluster.metadata.uid}) — deleted`);
    // A ModelDeployment of the same name is another object: none ever existed.
    expect(await kubeairunway(['history', `${kube.namespace}/${name}`])).toMatchObject({ code: 1, stderr: `error: ModelDeployment ${kube.namespace}/${name} not found, and Temporal has no workflow for it.\n` });
  });
});
