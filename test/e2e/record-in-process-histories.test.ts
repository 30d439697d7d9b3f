// Real histories of a ModelDeployment whose provider runs in the core worker's process (the default
// `run`): its reconcile and its cleanup are local activities named after it, and the cleanup's markers
// are committed by a timer before the workflow completes. They must replay on the current code; with
// KUBEAIRUNWAY_RECORD_HISTORIES=<label> they are written to
// workflows/__histories__/<label>-<scenario>.json for the replay test (worker/replay.test.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { dynamoProvider } from '../../providers/index.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { resolveTool } from '../../tools/resolve.ts';
import { buildTimeline } from '../../cli/operator/timeline.ts';
import { HISTORIES_DIR, replayFailures } from '../../worker/replay.ts';
import { createDeployment, deleteDeployment, example, phaseIs, waitForDeployment, waitGone } from '../support/deployments.ts';
import { stackInfo, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, workflowBundle, type TestController } from '../support/controller.ts';

describe('recorded histories, provider in process', () => {
  let kube: TestKube;
  let ctl: TestController;
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    kube = await testKube('e2e-recip');
    ctl = await startTestController({ namespaces: [kube.namespace], providers: [dynamoProvider] });
    const t = await temporalClient();
    client = t.client;
    close = () => t.connection.close();
  });
  afterAll(async () => {
    await ctl?.stop();
    await close?.();
    await kube?.cleanup();
  });

  it('create → Running → delete runs the provider as local activities and replays (recorded when asked)', async () => {
    const name = uniqueName('inprocess');
    const md = await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = name)));
    const workflowId = workflowIdFor(MODEL_DEPLOYMENT_KIND, { namespace: kube.namespace, name, uid: md.metadata.uid! });
    await waitForDeployment(kube.namespace, name, 'Running', phaseIs('Running'));
    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name);
    const handle = client.workflow.getHandle(workflowId);
    await handle.result();

    const history = await handle.fetchHistory();
    const steps = buildTimeline([{ runId: 'r', events: history.events ?? [] }]).map((e) => `${e.step}${e.kind === 'timer' ? `: ${e.detail}` : ''}`);
    // The path this history guards: both provider steps in process, the commit timer before completion.
    expect(steps).toEqual(expect.arrayContaining(['dynamo:reconcileResource', 'dynamo:cleanupResources', 'timer: recorded the cleanup before completing']));
    expect(steps.indexOf('timer: recorded the cleanup before completing')).toBeGreaterThan(steps.lastIndexOf('removeFinalizer'));
    expect(steps.at(-1)).toBe('workflow completed');
    // The cleanup saw the resource gone: the watch's echo of that deletion woke nobody.
    const signalReasons = (history.events ?? []).flatMap((e) => {
      const data = e.workflowExecutionSignaledEventAttributes?.input?.payloads?.[0]?.data;
      return data ? [(JSON.parse(Buffer.from(data).toString()) as { reason?: string }).reason] : [];
    });
    expect(signalReasons).toContain('deleting');
    expect(signalReasons.filter((r) => r?.endsWith('deleted'))).toEqual([]);

    const label = process.env.KUBEAIRUNWAY_RECORD_HISTORIES;
    if (label) {
      const json = execFileSync(resolveTool('temporal')!.path, ['workflow', 'show', '--address', stackInfo().temporalAddress, '-w', workflowId, '-o', 'json'], { encoding: 'utf8' });
      writeFileSync(join(HISTORIES_DIR.pathname, `${label}-inprocess-lifecycle.json`), `${JSON.stringify({ workflowId, history: JSON.parse(json) })}\n`);
    }
    expect(await replayFailures(await workflowBundle(), [{ workflowId, history }])).toEqual([]);
  });
});
