// Every row of the seeds' status-mapping tables (seed 000 "Status Mapping", seed 001 §4.9), driven end
// to end: the simulated upstream operator writes the upstream status, the provider maps it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OUTCOME_ANNOTATION } from '../../devstack/simulators/simulator.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { condition, createDeployment, eventsFor, example, waitForDeployment } from '../support/deployments.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { startTestController, type TestController } from '../support/controller.ts';

interface Row {
  provider: string;
  upstream: string;
  outcome: string;
  phase: string;
  message?: string;
  file: string;
  explicit?: string;
}

const rows: Row[] = [
  { provider: 'KAITO', upstream: 'WorkspaceSucceeded: True', outcome: 'ready', phase: 'Running', file: 'cpu-llamacpp-minimal.yaml' },
  { provider: 'KAITO', upstream: 'InferenceReady: False', outcome: 'hold', phase: 'Deploying', message: 'Inference workload is starting', file: 'cpu-llamacpp-minimal.yaml' },
  { provider: 'KAITO', upstream: 'error condition', outcome: 'fail: node provisioning failed', phase: 'Failed', message: 'node provisioning failed', file: 'cpu-llamacpp-minimal.yaml' },
  { provider: 'Dynamo', upstream: 'state: successful', outcome: 'ready', phase: 'Running', file: 'gpu-vllm-dynamo.yaml' },
  { provider: 'Dynamo', upstream: 'state: pending', outcome: 'hold', phase: 'Deploying', file: 'gpu-vllm-dynamo.yaml' },
  { provider: 'Dynamo', upstream: 'state: failed', outcome: 'fail: insufficient GPUs', phase: 'Failed', message: 'insufficient GPUs', file: 'gpu-vllm-dynamo.yaml' },
  { provider: 'KubeRay', upstream: 'serviceStatus: Running', outcome: 'ready', phase: 'Running', file: 'gpu-vllm-dynamo.yaml', explicit: 'kuberay' },
  { provider: 'KubeRay', upstream: 'serviceStatus: Pending', outcome: 'hold', phase: 'Pending', file: 'gpu-vllm-dynamo.yaml', explicit: 'kuberay' },
  { provider: 'KubeRay', upstream: 'serviceStatus: Failed', outcome: 'fail: replica crashed', phase: 'Failed', message: 'llm: replica crashed', file: 'gpu-vllm-dynamo.yaml', explicit: 'kuberay' },
];

describe.concurrent('status mapping through the simulated operators', () => {
  let kube: TestKube;
  let ctl: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-status');
    ctl = await startTestController({ namespaces: [kube.namespace] });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  for (const row of rows) {
    it(`${row.provider} ${row.upstream} → ${row.phase}`, async () => {
      const name = uniqueName(row.provider.toLowerCase());
      const md: ModelDeployment = example(row.file, kube.namespace, (m) => {
        m.metadata.name = name;
        m.metadata.annotations = { [OUTCOME_ANNOTATION]: row.outcome };
        if (row.explicit) m.spec.provider = { name: row.explicit };
      });
      await createDeployment(md);
      // Pending and Deploying are also passed through before the operator reports anything, with a
      // "waiting for status" message; the row's own message (or none) proves the upstream status was mapped.
      const settled = await waitForDeployment(kube.namespace, name, row.phase, (m) => m.status?.phase === row.phase && m.status?.message === row.message);
      expect(settled.status?.message).toBe(row.message);
      expect(condition(settled, 'Ready')?.status).toBe(row.phase === 'Running' ? 'True' : 'False');
      if (row.phase === 'Failed') {
        const events = await eventually('ProviderError event', async () => (await eventsFor(kube.namespace, name)).find((e) => e.reason === 'ProviderError'));
        expect(events).toMatchObject({ type: 'Warning', message: `Provider resource in error state: ${row.message}` });
      }
    });
  }
});
