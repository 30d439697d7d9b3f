// Properties of the durable workflow itself: an idle deployment costs nothing, history stays bounded by
// continue-as-new with its state carried over, retry re-runs a waiting step, Secret references are
// checked from metadata only.
import type { DeploymentView } from '../../workflows/model-deployment/view.ts';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { retryUpdate, viewQuery } from '../../workflows/engine/definitions.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { eventsFor, patchDeployment, runningDeployment } from '../support/deployments.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { eventually, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';

describe.concurrent('workflow behaviour', () => {
  let kube: TestKube;
  let ctl: TestController;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    kube = await testKube('e2e-wf');
    ctl = await startTestController({ namespaces: [kube.namespace], settings: { maxHistoryEvents: 40 } });
    const t = await temporalClient();
    client = t.client;
    close = () => t.connection.close();
  });
  afterAll(async () => {
    await ctl?.stop();
    await close?.();
    await kube?.cleanup();
  });

  const running = async (prefix: string, patch?: (md: ModelDeployment) => void) => {
    const md = await runningDeployment(kube.namespace, prefix, patch);
    const name = md.metadata.name!;
    return { name, handle: client.workflow.getHandle(workflowIdFor(MODEL_DEPLOYMENT_KIND, { namespace: kube.namespace, name, uid: md.metadata.uid! })), md };
  };

  it('costs no workflow task while idle between resyncs', async () => {
    const { handle } = await running('idle');
    // Let the last signals (our own writes echoing through the watches) settle.
    await eventually('history to settle', async () => {
      const a = (await handle.describe()).historyLength;
      await new Promise((r) => setTimeout(r, 1_500));
      return (await handle.describe()).historyLength === a;
    });
    const before = (await handle.describe()).historyLength;
    await new Promise((r) => setTimeout(r, 5_000));
    expect((await handle.describe()).historyLength).toBe(before);
  });

  it('continues as new to keep history short, carrying its state', async () => {
    const { name, handle } = await running('can');
    const firstRun = (await handle.describe()).runId;
    for (let i = 0; i < 6; i++) {
      await patchDeployment(kube.namespace, name, { metadata: { labels: { 'kubeairunway.ai/round': String(i) } } });
      await new Promise((r) => setTimeout(r, 700));
    }
    const latest = await eventually('a new run', async () => {
      const d = await client.workflow.getHandle(handle.workflowId).describe();
      return d.runId !== firstRun ? d : undefined;
    });
    expect(latest.status.name).toBe('RUNNING');
    expect(latest.historyLength).toBeLessThan(200);
    const view = (await client.workflow.getHandle(handle.workflowId).query(viewQuery)) as DeploymentView;
    expect(view.provider).toBe('dynamo');
    expect(view.passes).toBeGreaterThan(3);
    const runs: string[] = [];
    for await (const wf of client.workflow.list({ query: `WorkflowId = "${handle.workflowId}"` })) runs.push(wf.runId);
    expect(runs.length).toBeGreaterThan(1);
  });

  it('answers the retry update with the step it retried and how it ended', async () => {
    const { handle } = await running('retry');
    const result = await handle.executeUpdate(retryUpdate);
    expect(result.outcome).toBe('succeeded');
    expect(result.error).toBeUndefined();
    const view = await handle.query(viewQuery);
    expect(view.phase).toBe('Running');
  });

  it('warns about a missing HuggingFace token Secret without reading any Secret', async () => {
    const secret = uniqueName('hf-token');
    const { name } = await running('secret', (m) => {
      m.spec.secrets = { huggingFaceToken: secret };
    });
    const warning = await eventually('SecretNotFound', async () => (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'SecretNotFound'));
    expect(warning).toMatchObject({ type: 'Warning', message: `Secret '${secret}' not found in namespace '${kube.namespace}'` });
  });
});
