// AsyncActor (seed 002, issue 12) bound to a KAITO Workspace, with the test playing KAITO: it creates
// the Workspace, and later the Deployment and Service KAITO would run for it (controller-owned by the
// Workspace). No simulator runs in this file, so nothing else creates them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AsyncActor } from '../../api/asya/types.ts';
import { kaitoWorkload } from '../../devstack/simulators/scripts.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { startTestController, type TestController } from '../support/controller.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';
import {
  actorView,
  applyAs,
  asyaMarks,
  bindingActor,
  conditionOf,
  containerNames,
  containerOf,
  containersManagedBy,
  createActor,
  deleteActor,
  envOf,
  getConfigMap,
  getDeployment,
  hasCondition,
  podTemplate,
  waitActorGone,
  waitForActor,
  WORKSPACES,
} from '../support/asya.ts';

/** KAITO's field manager, as the test plays it. */
const KAITO = 'kaito';

describe.concurrent('AsyncActor bound to a KAITO Workspace', () => {
  let kube: TestKube;
  let ctl: TestController;
  let ns: string;
  beforeAll(async () => {
    kube = await testKube('e2e-asya-ws');
    ns = kube.namespace;
    ctl = await startTestController({ namespaces: [ns], simulators: false });
  });
  afterAll(async () => {
    await ctl?.stop();
    await kube?.cleanup();
  });

  it('waits for the Workspace and its Deployment, injects into that, un-injects on deletion, and lets GC collect it with the Workspace', async () => {
    const objects = new CustomObjects(kube.kc);
    const workspaceName = uniqueName('phi-3');
    const name = uniqueName('phi-3-async');
    const actor: AsyncActor = bindingActor(ns, name, { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: workspaceName });
    actor.spec.runtime = { ...actor.spec.runtime!, targetService: { name: workspaceName, port: 80, protocol: 'http', path: '/v1/chat/completions' } };
    await createActor(actor);

    // Neither the Workspace nor its workload exists yet: a wait, not a failure.
    const noWorkspace = await waitForActor(ns, name, 'waiting for the Workspace', hasCondition('TargetResolved', 'False', 'TargetNotReady'));
    expect(conditionOf(noWorkspace, 'TargetResolved')?.message).toBe(`Workspace ${ns}/${workspaceName} does not exist`);
    expect(noWorkspace.status).toMatchObject({ mode: 'Binding', status: 'Binding' });

    const workspace: AnyObject = {
      apiVersion: 'kaito.sh/v1beta1',
      kind: 'Workspace',
      metadata: { name: workspaceName, namespace: ns },
      // KAITO's schema requires the label selector of the nodes it may use.
      resource: { count: 1, instanceType: 'Standard_NC6s_v3', labelSelector: { matchLabels: { apps: 'phi-3' } } },
      inference: { preset: { name: 'phi-3-mini-4k-instruct' } },
    };
    await applyAs(WORKSPACES, workspace, KAITO);
    const liveWorkspace = (await objects.get({ ...WORKSPACES, namespace: ns, name: workspaceName }))!;
    const waiting = await waitForActor(ns, name, 'waiting for the Workspace\'s workload', (a) => conditionOf(a, 'TargetResolved')?.message === `Workspace ${ns}/${workspaceName} has no Deployment or StatefulSet yet`);
    expect(conditionOf(waiting, 'TargetResolved')).toMatchObject({ status: 'False', reason: 'TargetNotReady' });
    expect(conditionOf(waiting, 'RuntimeInjected')).toBeUndefined();
    const view = await actorView(waiting);
    expect(view.lastError).toBeUndefined();
    expect(view.failures).toBe(0);
    expect(view.waitingFor).toBe('the target workload to exist');

    // KAITO runs the Workspace: a Deployment and a Service named after it, both controlled by it.
    for (const { plural, object } of kaitoWorkload(liveWorkspace)) {
      await applyAs({ group: plural === 'deployments' ? 'apps' : '', version: 'v1', plural }, object, KAITO);
    }
    const before = (await getDeployment(ns, workspaceName))!;
    expect(before.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'Workspace', name: workspaceName, uid: liveWorkspace.metadata!.uid, controller: true })]);

    const bound = await waitForActor(ns, name, 'injected', hasCondition('RuntimeInjected', 'True', 'Injected'));
    expect(bound.status).toMatchObject({ mode: 'Binding', resolvedTarget: `Deployment/${ns}/${workspaceName}`, runtimeInjected: true });
    expect(conditionOf(bound, 'TargetResolved')).toMatchObject({ status: 'True', reason: 'Resolved', message: `Workspace ${ns}/${workspaceName} resolves to Deployment/${ns}/${workspaceName}` });
    const injected = (await getDeployment(ns, workspaceName))!;
    expect(containerNames(injected)).toEqual([workspaceName, 'asya-runtime', 'asya-sidecar']);
    expect(containerOf(injected, workspaceName)).toEqual(containerOf(before, workspaceName));
    expect(containersManagedBy(injected, 'asya')).toEqual(['asya-runtime', 'asya-sidecar']);
    expect(containersManagedBy(injected, KAITO)).toEqual([workspaceName]);
    expect(envOf(containerOf(injected, 'asya-runtime'), 'ASYA_TARGET_URL')).toBe(`http://${workspaceName}.${ns}.svc.cluster.local:80/v1/chat/completions`);
    expect(injected.metadata?.labels).toEqual({ ...before.metadata?.labels, 'asya.sh/managed-by': name });
    expect(injected.metadata?.annotations).toMatchObject({ 'asya.sh/managed-by': name, 'asya.sh/mode': 'binding' });
    // The script the injected runtime mounts: the namespace's shared ConfigMap, owned by no actor.
    const configMap = await getConfigMap(ns, 'asya-runtime');
    expect(Object.keys((configMap?.data ?? {}) as object)).toEqual(['asya_runtime.py']);
    expect(configMap?.metadata?.ownerReferences).toBeUndefined();
    // KAITO's Workspace stays the only owner: nothing of ours would keep the Deployment alive.
    expect(injected.metadata?.ownerReferences).toEqual(before.metadata?.ownerReferences);

    await deleteActor(ns, name);
    await waitActorGone(ns, name);
    const released = (await getDeployment(ns, workspaceName))!;
    expect(podTemplate(released)).toEqual(podTemplate(before));
    expect(released.metadata?.labels).toEqual(before.metadata?.labels);
    expect(asyaMarks(released)).toEqual([]);
    expect(released.metadata?.ownerReferences).toEqual(before.metadata?.ownerReferences);

    // Deleting the Workspace afterwards: the garbage collector removes its Deployment and Service.
    await objects.delete({ ...WORKSPACES, namespace: ns, name: workspaceName });
    await eventually('the Workspace\'s Deployment collected', async () => (await getDeployment(ns, workspaceName)) === undefined);
    await eventually('the Workspace\'s Service collected', async () => (await objects.get({ group: '', version: 'v1', plural: 'services', namespace: ns, name: workspaceName })) === undefined);
  });
});
