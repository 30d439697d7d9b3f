// `kubeairunway retry` on a deployment stuck on a missing provider CRD. The provider is a third-party
// one defined here, whose CRD is installed only during the test. No watcher runs and the resync period
// is long, so nothing but the retry can move the deployment once the CRD exists. The provider's
// heartbeat and periodic CRD check are an hour apart: the retry finds the CRD only because the
// registration reports it as soon as its watch of the CRD sees it.
import { modelDeploymentKind } from '../../watcher/kinds/model-deployment.ts';
import { ApiextensionsV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import type { InferenceProviderConfig, ModelDeployment } from '../../api/types.ts';
import type { DeploymentStatus } from '../../kinds/model-deployment/status.ts';
import type { HistoryReport } from '../../cli/operator/history-format.ts';
import type { RetryReport } from '../../cli/operator/retry.ts';
import { openLightTemporal } from '../../cli/operator/light-temporal.ts';
import { sdkWorkflowReader } from '../../cli/operator/workflow-reader-sdk.ts';
import { workflowState } from '../../present/workflow-state.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { createSignaler } from '../../watcher/signaler.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { startTestController, TEST_SETTINGS, type TestController } from '../support/controller.ts';
import { condition, createDeployment, getDeployment, getObject, patchDeployment, waitForDeployment } from '../support/deployments.ts';
import { eventually, stackInfo, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { json, kubeairunway } from './cli.ts';
import { thirdPartyProvider } from '../support/third-party-provider.ts';
import { installCrds } from '../../devstack/crds.ts';

describe('kubeairunway retry', () => {
  const widget = thirdPartyProvider(`widget-${uniqueName('r').slice(2)}`);
  let kube: TestKube;
  let ctl: TestController | undefined;
  let temporal: Awaited<ReturnType<typeof temporalClient>>;
  let md: ModelDeployment;
  let workflowId: string;
  const name = 'stuck';
  const target = () => `${kube.namespace}/${name}`;
  const widgetObject = () => getObject({ ...widget.resource, namespace: kube.namespace, name });
  const providerConfig = async () =>
    (await new CustomObjects(kube.kc).get({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name: widget.provider.name })) as unknown as InferenceProviderConfig | undefined;

  beforeAll(async () => {
    kube = await testKube('cli-retry');
    temporal = await temporalClient();
    ctl = await startTestController({ namespaces: [kube.namespace], providers: [widget.provider], watcher: false, simulators: false, heartbeatMs: 3_600_000, providerCrdCheckMs: 3_600_000 });
    const settings = { ...TEST_SETTINGS, resyncPeriod: '10m', taskQueuePrefix: ctl.taskQueuePrefix };
    md = (await createDeployment({
      apiVersion: API_VERSION,
      kind: MODEL_DEPLOYMENT_KIND,
      metadata: { name, namespace: kube.namespace },
      spec: { model: { id: 'acme/widget-7b', source: 'huggingface' }, engine: { type: 'vllm' }, provider: { name: widget.provider.name }, resources: { gpu: { count: 1 } } },
    } as ModelDeployment))!;
    // What the watcher would do, once: start the deployment's workflow.
    await createSignaler(temporal.client, settings)({ kind: modelDeploymentKind, ref: { namespace: kube.namespace, name, uid: md.metadata.uid! }, request: { reason: 'test' }, start: true });
    workflowId = workflowIdFor(MODEL_DEPLOYMENT_KIND, { namespace: kube.namespace, name, uid: md.metadata.uid! });
  });

  afterAll(async () => {
    await ctl?.stop();
    await temporal?.client.workflow.getHandle(workflowId).terminate('test over').catch(() => undefined);
    // The finalizer would hold the namespace with no controller left to remove it.
    await patchDeployment(kube.namespace, name, { metadata: { finalizers: null } }).catch(() => undefined);
    await kube.kc.makeApiClient(ApiextensionsV1Api).deleteCustomResourceDefinition({ name: widget.crdName }).catch(() => undefined);
    await new CustomObjects(kube.kc).delete({ group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'inferenceproviderconfigs', name: widget.provider.name }).catch(() => undefined);
    await temporal?.connection.close();
    await kube?.cleanup();
  });

  it('moves a deployment stuck on a missing provider CRD once the CRD exists', async () => {
    const message = `Provider '${widget.provider.name}' CRD not installed in cluster`;
    await waitForDeployment(kube.namespace, name, 'waiting for the CRD', (m) => m.status?.phase === 'Pending' && m.status.message === message);

    // Retried while the CRD is still missing: the step runs again and is still waiting.
    const early = await kubeairunway(['retry', target(), '-o', 'json']);
    expect(early.code).toBe(0);
    const awaited = `the CRD of provider '${widget.provider.name}' to be installed`;
    expect(json<RetryReport>(early)).toMatchObject({ retried: 'validate', wasWaitingFor: awaited, outcome: 'waiting', now: { step: 'validate', waitingFor: awaited } });

    await installCrds(kube.kc, [widget.crd]);
    // The provider reports the CRD at once (from its watch of it); the deployment itself stays where it is.
    await eventually('the provider to report its CRD', async () => Boolean((await providerConfig())?.status?.upstreamCRDVersion));
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await widgetObject()).toBeUndefined();
    expect((await getDeployment(kube.namespace, name))?.status?.message).toBe(message);

    const result = await kubeairunway(['retry', target()]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Retrying step 'validate' of ${target()} (workflow ${workflowId}) ...`);
    expect(result.stdout).toMatch(new RegExp(`^Retried step 'validate' of ${target()}, which was waiting for the CRD of provider '${widget.provider.name}' to be installed\\.\\nThe new attempt succeeded in \\S+: phase Deploying, provider ${widget.provider.name}\\.\\n$`));

    // Done when the retry answered, not later.
    const widgetResource = await widgetObject();
    expect(widgetResource?.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ModelDeployment', name, uid: md.metadata.uid });
    const after = await getDeployment(kube.namespace, name);
    expect(condition(after!, 'ResourceCreated')?.status).toBe('True');
    expect(after?.status?.phase).toBe('Deploying');

    // The history tells the same story: validation waiting on the CRD, the retry, then the resource created.
    const history = json<HistoryReport>(await kubeairunway(['history', target(), '-o', 'json']));
    const steps = history.timeline;
    const waiting = steps.findIndex((e) => e.step === 'assessDeployment' && e.error === `ValidationFailed: ${message}`);
    const retries = steps.map((e, i) => (e.step === 'update retry' ? i : -1)).filter((i) => i >= 0);
    const created = steps.findIndex((e) => e.step === `${widget.provider.name}:reconcileResource` && e.detail?.startsWith(`created ModelInference '${name}'; phase `));
    expect(waiting).toBeGreaterThanOrEqual(0);
    expect(retries).toHaveLength(2);
    expect(steps[retries[0]!]?.detail).toBe('retried validate; waiting');
    expect(steps[retries[1]!]).toMatchObject({ outcome: 'completed', detail: 'retried validate; succeeded' });
    expect(created).toBeGreaterThan(retries[1]!);
    const failures = json<HistoryReport>(await kubeairunway(['history', target(), '-o', 'json', '--failures']));
    expect(failures.timeline.length).toBeGreaterThan(0);
    expect(failures.timeline.every((e) => e.error !== null)).toBe(true);
  });

  it('status falls back to the memo when no worker answers, and retry says the controller is not running', async () => {
    await ctl!.stop();
    ctl = undefined;
    const result = await kubeairunway(['status', target(), '-o', 'json']);
    expect(result.code).toBe(0);
    const status = json<DeploymentStatus>(result);
    expect(status).toMatchObject({ phase: 'Deploying', provider: widget.provider.name, workflow: { id: workflowId, status: 'RUNNING', source: 'memo' } });
    expect(status.workflow.note).toContain("no worker answered the view query");
    // The workflow's own phase and provider come from its search attributes (the memo holds only failures).
    // Both readers: the SDK's (retry, pause) and status's own gRPC one decode the same search attributes.
    expect(await workflowState(sdkWorkflowReader(temporal.client), workflowId, { queryTimeoutMs: 500 })).toMatchObject({ source: 'memo', phase: 'Deploying', provider: widget.provider.name });
    const light = await openLightTemporal({ address: stackInfo().temporalAddress, namespace: stackInfo().temporalNamespace });
    try {
      expect(await workflowState(light, workflowId, { queryTimeoutMs: 500 })).toMatchObject({ source: 'memo', status: 'RUNNING', phase: 'Deploying', provider: widget.provider.name });
    } finally {
      await light.close();
    }
    const text = await kubeairunway(['status', target()]);
    expect(text.stdout).toMatch(/\nnote: no worker answered the view query .*is the core worker running\?\n$/);

    const retry = await kubeairunway(['retry', target(), '--timeout', '3s']);
    expect(retry).toMatchObject({ code: 1, stdout: '' });
    expect(retry.stderr).toContain(`error: The retry of ${target()} did not end within 3s and no core worker answers: is the controller running?\n`);
  });

  it('retry of a deployment that does not exist is one sentence and exit code 1', async () => {
    expect(await kubeairunway(['retry', `${kube.namespace}/nope`])).toMatchObject({ code: 1, stdout: '', stderr: `error: ModelDeployment ${kube.namespace}/nope not found.\n` });
  });
});
