// The watch's echo of a provider resource deletion: the cleanup says nothing of one it saw done (its
// workflow knows), and still wakes the workflow for one that finalizers held (watcher/owner-signals.ts
// `expectRemoval`). The poll and the deadline are an hour here: only the echo can end the wait in time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomObjects } from '../../kube/custom-objects.ts';
import { deleteDeployment, getObject, runningDeployment, UPSTREAM, waitForDeployment, waitGone, phaseIs } from '../support/deployments.ts';
import { eventually, kubeConfig, temporalClient, testKube, type TestKube } from '../support/env.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { buildTimeline } from '../../cli/operator/timeline.ts';
import { startTestController, type TestController } from '../support/controller.ts';

describe('deletion of a provider resource held by its own finalizer', () => {
  let kube: TestKube;
  let controller: TestController;
  beforeAll(async () => {
    kube = await testKube('e2e-delecho');
    // The provider in the core's process, as the product runs by default: its cleanup is a local activity.
    controller = await startTestController({ namespaces: [kube.namespace], settings: { pollInterval: '1h', cleanupTimeout: '1h' } });
  });
  afterAll(async () => {
    await controller?.stop();
    await kube?.cleanup();
  });

  it('ends the deletion as soon as the held resource is gone, woken by its watch', async () => {
    const name = (await runningDeployment(kube.namespace, 'held')).metadata.name!;
    const ref = { ...UPSTREAM.dgd, namespace: kube.namespace, name };
    const objects = new CustomObjects(kubeConfig());
    await objects.mergePatch(ref, { metadata: { finalizers: ['example.com/operator-hold'] } });
    await deleteDeployment(kube.namespace, name);
    await waitForDeployment(kube.namespace, name, 'Terminating', phaseIs('Terminating'));
    expect((await getObject(ref))?.metadata?.deletionTimestamp).toBeTruthy();
    await objects.mergePatch(ref, { metadata: { finalizers: null } });
    // Without the watch's wake-up the cleanup would look again only after the hour's poll.
    await waitGone(kube.namespace, name, 30_000);
    expect(await getObject(ref)).toBeUndefined();
  });

  it('a workflow whose first pass finds the deployment deleting still cleans up in process', async () => {
    const md = await runningDeployment(kube.namespace, 'restarted');
    const name = md.metadata.name!;
    const workflowId = workflowIdFor('ModelDeployment', { namespace: kube.namespace, name, uid: md.metadata.uid! });
    // The deletion happens while no controller runs and the workflow is gone: the next controller's
    // watcher starts a new one, whose first pass sees the deletion.
    await controller.stop();
    const { client, connection } = await temporalClient();
    try {
      await client.workflow.getHandle(workflowId).terminate('the test replaces this run');
      await deleteDeployment(kube.namespace, name);
      controller = await startTestController({ namespaces: [kube.namespace], settings: { pollInterval: '1h', cleanupTimeout: '1h' } });
      await waitGone(kube.namespace, name, 30_000);
      // Every run of the workflow ID: a late "look again" may start one more after the cleanup's run
      // ended (it finds the object gone), so the latest run need not be the one that cleaned up.
      const runs = await eventually('the cleanup in one of the runs', async () => {
        const all = [];
        for await (const run of client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
          all.push((await client.workflow.getHandle(workflowId, run.runId).fetchHistory()).events ?? []);
        }
        const cleaned = all.some((events) => buildTimeline([{ runId: 'r', events }]).some((e) => e.step === 'dynamo:cleanupResources'));
        return cleaned ? all : undefined;
      });
      expect(runs.flat().some((e) => e.activityTaskScheduledEventAttributes)).toBe(false);
    } finally {
      await connection.close();
    }
  });

  it('deletes a resource nothing holds and ends at once', async () => {
    const name = (await runningDeployment(kube.namespace, 'free')).metadata.name!;
    await deleteDeployment(kube.namespace, name);
    await waitGone(kube.namespace, name, 30_000);
    expect(await getObject({ ...UPSTREAM.dgd, namespace: kube.namespace, name })).toBeUndefined();
  });
});
