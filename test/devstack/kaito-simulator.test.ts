// The simulated KAITO operator runs what the real one runs for a Workspace: a Deployment and a Service
// named after it, controlled by it (the garbage collector takes them with it), created once by
// server-side apply and then left alone, so containers another field manager injects stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KAITO_PRESET_IMAGE, KAITO_WORKSPACE_LABEL, kaitoWorkspace } from '../../devstack/simulators/scripts.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { eventually, testKube, type TestKube } from '../support/env.ts';

interface Deployment extends AnyObject {
  spec: { replicas: number; selector: { matchLabels: Record<string, string> }; template: { metadata: { labels: Record<string, string> }; spec: { containers: { name: string; image: string; ports?: { containerPort: number }[] }[] } } };
}

/** Who wrote the object's fields, and how (server-side apply is `Apply`). */
const managedFields = (o: AnyObject) => (o.metadata as { managedFields?: { manager: string; operation: string }[] }).managedFields ?? [];

describe('KAITO simulator workload', () => {
  let kube: TestKube;
  let objects: CustomObjects;
  let simulator: Simulator;
  beforeAll(async () => {
    kube = await testKube('kaito-sim');
    objects = new CustomObjects(kube.kc);
    simulator = await startSimulator(kube.kc, kaitoWorkspace, { readyAfterMs: 200 });
  });
  afterAll(async () => {
    await simulator?.stop();
    await kube?.cleanup();
  });

  const at = (group: string, version: string, plural: string, name: string) => ({ group, version, plural, namespace: kube.namespace, name });
  const workspaceRef = (name: string) => at('kaito.sh', 'v1beta1', 'workspaces', name);
  const deploymentRef = (name: string) => at('apps', 'v1', 'deployments', name);
  const serviceRef = (name: string) => at('', 'v1', 'services', name);
  const applyWorkspace = (name: string, body: Record<string, unknown>) =>
    objects.apply(workspaceRef(name), { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', metadata: { name, namespace: kube.namespace }, ...body } as AnyObject, 'kaito-simulator-test');
  const ready = (name: string) =>
    eventually(`${name} WorkspaceSucceeded`, async () => {
      const ws = (await objects.get(workspaceRef(name))) as (AnyObject & { status?: { conditions?: { type: string; status: string }[] } }) | undefined;
      return ws?.status?.conditions?.some((c) => c.type === 'WorkspaceSucceeded' && c.status === 'True') ? ws : undefined;
    }, 30_000);

  it('creates a Deployment and a Service named after a preset Workspace, controlled by it', async () => {
    const ws = await applyWorkspace('phi-3', { resource: { count: 2, labelSelector: { matchLabels: { apps: 'phi-3' } } }, inference: { preset: { name: 'phi-3-mini-4k-instruct' } } });
    const deployment = (await eventually('the Deployment', () => objects.get(deploymentRef('phi-3')), 30_000)) as Deployment;
    const owner = { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'phi-3', uid: ws.metadata!.uid, controller: true, blockOwnerDeletion: true };
    expect(deployment.metadata?.ownerReferences).toEqual([owner]);
    expect(deployment.metadata?.labels).toEqual({ [KAITO_WORKSPACE_LABEL]: 'phi-3' });
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.selector.matchLabels).toEqual({ [KAITO_WORKSPACE_LABEL]: 'phi-3' });
    expect(deployment.spec.template.metadata.labels).toEqual({ [KAITO_WORKSPACE_LABEL]: 'phi-3' });
    expect(deployment.spec.template.spec.containers.map((c) => [c.name, c.image, c.ports?.[0]?.containerPort])).toEqual([['phi-3', KAITO_PRESET_IMAGE, 5000]]);
    expect(managedFields(deployment).map((f) => [f.manager, f.operation])).toEqual([['kaito-simulator', 'Apply']]);

    const service = (await objects.get(serviceRef('phi-3'))) as AnyObject & { spec: { selector: Record<string, string>; ports: { port: number; targetPort: number }[] } };
    expect(service.metadata?.ownerReferences).toEqual([owner]);
    expect(service.spec.selector).toEqual({ [KAITO_WORKSPACE_LABEL]: 'phi-3' });
    expect(service.spec.ports.map((p) => [p.port, p.targetPort])).toEqual([[80, 5000]]);
    await ready('phi-3');
  });

  it('runs a template Workspace as its pod template says', async () => {
    const container = { name: 'model', image: 'ghcr.io/ggml-org/llama.cpp:server', args: ['--address=:5000'], ports: [{ containerPort: 5000 }] };
    await applyWorkspace('gemma', { resource: { count: 1, labelSelector: { matchLabels: { apps: 'gemma' } } }, inference: { template: { metadata: { labels: { team: 'a' } }, spec: { containers: [container] } } } });
    const deployment = (await eventually('the Deployment', () => objects.get(deploymentRef('gemma')), 30_000)) as Deployment;
    expect(deployment.spec.template.spec.containers).toEqual([expect.objectContaining({ name: 'model', image: container.image, args: container.args })]);
    expect(deployment.spec.template.metadata.labels).toEqual({ team: 'a', [KAITO_WORKSPACE_LABEL]: 'gemma' });
  });

  it('leaves the Deployment alone afterwards: containers injected by another field manager stay', async () => {
    await ready('phi-3');
    const sidecar = { name: 'asya-sidecar', image: 'asya-sidecar:test' };
    await objects.apply(
      deploymentRef('phi-3'),
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'phi-3', namespace: kube.namespace }, spec: { template: { spec: { containers: [sidecar] } } } } as AnyObject,
      'asya',
    );
    // A spec change (new generation, simulated again from progressing to ready) and its status writes.
    const changed = await applyWorkspace('phi-3', { resource: { count: 3, labelSelector: { matchLabels: { apps: 'phi-3' } } }, inference: { preset: { name: 'phi-3-mini-4k-instruct' } } });
    expect(changed.metadata?.generation).toBe(2);
    await eventually('the new generation simulated', async () => {
      const ws = (await objects.get(workspaceRef('phi-3'))) as AnyObject & { status?: { conditions?: { type: string }[] } };
      return ws.status?.conditions?.every((c) => c.type !== 'WorkspaceSucceeded') ? ws : undefined;
    }, 10_000, 20);
    await ready('phi-3');
    const deployment = (await objects.get(deploymentRef('phi-3'))) as Deployment;
    expect(deployment.spec.template.spec.containers.map((c) => c.name)).toEqual(['phi-3', 'asya-sidecar']);
    expect(deployment.spec.replicas).toBe(2);
    expect(managedFields(deployment).map((f) => f.manager).sort()).toEqual(['asya', 'kaito-simulator']);
  });

  it('goes with its Workspace (garbage collector)', async () => {
    await objects.delete(workspaceRef('gemma'));
    await eventually('the Deployment and Service collected', async () => !(await objects.get(deploymentRef('gemma'))) && !(await objects.get(serviceRef('gemma'))), 60_000);
    // Recreated under the same name, the Workspace gets a workload of its own.
    const again = await applyWorkspace('gemma', { inference: { preset: { name: 'gemma-3' } } });
    const deployment = (await eventually('the new Deployment', async () => {
      const d = await objects.get(deploymentRef('gemma'));
      return d?.metadata?.ownerReferences?.[0]?.uid === again.metadata!.uid ? d : undefined;
    }, 30_000)) as Deployment;
    expect(deployment.spec.template.spec.containers.map((c) => c.image)).toEqual([KAITO_PRESET_IMAGE]);
  });
});
