// Produces real histories of the main paths (create → Running → delete; identity update; invalid spec
// fixed later; pause and resume; finalizer timeout) and checks they replay on the current code. With
// KUBEAIRUNWAY_RECORD_HISTORIES=<label> they are written to workflows/__histories__/<label>-<scenario>.json
// for the replay test; keep older labels: they are what running deployments of older versions hold.
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { execFileSync } from 'node:child_process';
import { resolveTool } from '../../tools/resolve.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { dynamoProvider } from '../../providers/index.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { HISTORIES_DIR, replayFailures } from '../../worker/replay.ts';
import { condition, createDeployment, deleteDeployment, example, patchDeployment, phaseIs, waitForDeployment, waitGone } from '../support/deployments.ts';
import { eventually, stackInfo, temporalClient, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, workflowBundle, type TestController } from '../support/controller.ts';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { kubeConfig } from '../support/env.ts';
import { UPSTREAM } from '../support/deployments.ts';

describe('recorded histories', () => {
  let kube: TestKube;
  let ctl: TestController;
  let providerCtl: TestController | undefined;
  let client: Client;
  let close: () => Promise<void>;
  const recorded: { scenario: string; workflowId: string }[] = [];

  beforeAll(async () => {
    kube = await testKube('e2e-rec');
    ctl = await startTestController({ namespaces: [kube.namespace], providers: [], settings: { cleanupTimeout: '4s' } });
    providerCtl = await startTestController({ namespaces: [], core: false, watcher: false, simulators: false, providers: [dynamoProvider], taskQueuePrefix: ctl.taskQueuePrefix });
    const t = await temporalClient();
    client = t.client;
    close = () => t.connection.close();
  });
  afterAll(async () => {
    await providerCtl?.stop();
    await ctl?.stop();
    await close?.();
    await kube?.cleanup();
  });

  const create = async (scenario: string, patch: Parameters<typeof example>[2] = () => {}) => {
    const name = uniqueName(scenario);
    const md = await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = name;
      patch(m);
    }));
    recorded.push({ scenario, workflowId: workflowIdFor(MODEL_DEPLOYMENT_KIND, { namespace: kube.namespace, name, uid: md.metadata.uid! }) });
    return name;
  };

  it('runs the main paths', async () => {
    const lifecycle = await create('lifecycle');
    const identity = await create('identity');
    const invalid = await create('invalid', (m) => (m.spec.provider = { name: 'nonexistent' }));
    const paused = await create('paused');
    await waitForDeployment(kube.namespace, lifecycle, 'Running', phaseIs('Running'));
    await waitForDeployment(kube.namespace, identity, 'Running', phaseIs('Running'));
    await waitForDeployment(kube.namespace, paused, 'Running', phaseIs('Running'));
    await waitForDeployment(kube.namespace, invalid, 'invalid', (m) => condition(m, 'Validated')?.status === 'False');

    await patchDeployment(kube.namespace, identity, { spec: { model: { id: 'meta-llama/Llama-3.2-3B-Instruct' } } });
    await patchDeployment(kube.namespace, invalid, { spec: { provider: { name: 'dynamo' } } });
    await patchDeployment(kube.namespace, paused, { metadata: { annotations: { [PAUSE_ANNOTATION]: 'true' } } });
    await waitForDeployment(kube.namespace, identity, 'recreated', (m) => m.status?.observedGeneration === 2 && m.status?.phase === 'Deploying' || m.status?.phase === 'Running' && m.status?.observedGeneration === 2);
    await waitForDeployment(kube.namespace, invalid, 'fixed', (m) => condition(m, 'Validated')?.status === 'True' && Boolean(m.status?.provider?.resourceName));
    await waitForDeployment(kube.namespace, paused, 'paused', (m) => condition(m, 'ReconcilePaused')?.status === 'True');
    await patchDeployment(kube.namespace, paused, { metadata: { annotations: { [PAUSE_ANNOTATION]: null } } });
    await waitForDeployment(kube.namespace, paused, 'resumed', (m) => condition(m, 'ReconcilePaused') === undefined);

    await deleteDeployment(kube.namespace, lifecycle);
    await waitGone(kube.namespace, lifecycle);

    // Finalizer timeout: the upstream resource holds on to its own finalizer.
    const stuck = await create('timeout');
    await waitForDeployment(kube.namespace, stuck, 'Deploying', (m) => Boolean(m.status?.provider?.resourceName));
    const ref = { ...UPSTREAM.dgd, namespace: kube.namespace, name: stuck };
    await new CustomObjects(kubeConfig()).mergePatch(ref, { metadata: { finalizers: ['example.com/hold'] } });
    await deleteDeployment(kube.namespace, stuck);
    await waitGone(kube.namespace, stuck);
    await new CustomObjects(kubeConfig()).mergePatch(ref, { metadata: { finalizers: null } });
    await eventually('upstream gone', async () => (await new CustomObjects(kubeConfig()).get(ref)) === undefined);
  });

  it('replays them on the current code (and records them when asked)', async () => {
    const histories = [];
    for (const r of recorded) {
      histories.push({ workflowId: r.workflowId, history: await client.workflow.getHandle(r.workflowId).fetchHistory() });
      const label = process.env.KUBEAIRUNWAY_RECORD_HISTORIES;
      if (label) {
        // The CLI's JSON is the documented interchange format (historyFromJSON reads it back).
        const json = execFileSync(resolveTool('temporal')!.path, ['workflow', 'show', '--address', stackInfo().temporalAddress, '-w', r.workflowId, '-o', 'json'], { encoding: 'utf8' });
        writeFileSync(join(HISTORIES_DIR.pathname, `${label}-${r.scenario}.json`), `${JSON.stringify({ workflowId: r.workflowId, history: JSON.parse(json) })}\n`);
      }
    }
    expect(histories).toHaveLength(5);
    expect(await replayFailures(await workflowBundle(), histories)).toEqual([]);
  });
});
