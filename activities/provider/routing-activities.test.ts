// The route's side of the provider activities over the in-memory fakes: routing on by default never
// holds up the model itself, and what routing made is pruned and cleaned up whatever status says.
import { describe, expect, it } from 'vitest';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { CRDS } from '../../providers/crd-version.ts';
import { deploymentProvider } from '../../providers/deployment/index.ts';
import { modelDeploymentResource } from '../deployment-ref.ts';
import { example } from '../testing/examples.ts';
import { FakeObjects, FakeRecorder, kubeStatusError, noCluster } from '../testing/fake-kube.ts';
import { runActivity } from '../testing/run-activity.ts';
import { createProviderActivities } from './create-provider-activities.ts';

const NS = 'team-a';
const ref = { namespace: NS, name: 'tiny-llama', uid: 'u-1' };
const routeAt = (name = 'tiny-llama') => ({ group: 'gateway.networking.k8s.io', version: 'v1', plural: 'httproutes', namespace: NS, name });
const gatewayAt = { group: 'gateway.networking.k8s.io', version: 'v1', plural: 'gateways', namespace: 'gateways', name: 'inference' };

/** A cluster serving the Gateway API with one Gateway, and the example deployment (`gateway` as its spec.gateway). */
function routedCluster(gateway?: object) {
  const objects = new FakeObjects();
  objects.put({ ...CRDS, name: 'httproutes.gateway.networking.k8s.io' }, { metadata: {} });
  objects.put(gatewayAt, { metadata: {}, spec: { listeners: [{ name: 'web', protocol: 'HTTP', port: 8080 }] }, status: { addresses: [{ value: '127.0.0.1' }] } });
  const raw = example('llama-cpu-deployment.yaml');
  const spec = { ...(raw.spec as Record<string, unknown>) };
  if (gateway) spec.gateway = gateway;
  else delete spec.gateway;
  objects.put(modelDeploymentResource(ref), { ...raw, metadata: { ...raw.metadata, namespace: NS, uid: 'u-1', generation: 1 }, spec });
  const recorder = new FakeRecorder();
  const activities = createProviderActivities(deploymentProvider, { kc: noCluster() }, { objects, recorder });
  const condition = () => (objects.at(modelDeploymentResource(ref))?.status as { conditions?: { type: string; status: string; reason?: string }[] } | undefined)?.conditions?.find((c) => c.type === 'GatewayReady');
  return { objects, recorder, activities, condition, status: () => objects.at(modelDeploymentResource(ref))?.status as Record<string, unknown> | undefined };
}

describe('routing beside the provider pass', () => {
  it('a route the API server refuses is GatewayReady=False with its reason; the model is applied and its phase is not Failed', async () => {
    const { activities, objects, condition } = routedCluster();
    objects.failNext('apply', kubeStatusError(422, 'Invalid', 'HTTPRoute.gateway.networking.k8s.io "tiny-llama" is invalid: spec.rules[0]: Too many'), 'httproutes');
    const outcome = await runActivity(activities.reconcileResource, ref);
    expect(outcome.apply).toMatchObject({ result: 'created' });
    expect(outcome.observed.phase).not.toBe('Failed');
    expect(condition()).toMatchObject({ status: 'False', reason: 'RouteRefused' });
  });

  it('Gateway API objects that cannot be read (a role without the Gateway rules) are GatewayReady=False, not a failed pass, and prune nothing', async () => {
    const { activities, objects, condition } = routedCluster();
    await runActivity(activities.reconcileResource, ref);
    expect(objects.at(routeAt())).toBeDefined();
    objects.failNext('list', kubeStatusError(403, 'Forbidden', 'gateways.gateway.networking.k8s.io is forbidden'), 'gateways');
    const outcome = await runActivity(activities.reconcileResource, ref);
    expect(outcome.observed.phase).not.toBe('Failed');
    expect(condition()).toMatchObject({ status: 'False', reason: 'GatewayLookupFailed' });
    expect(objects.at(routeAt())).toBeDefined();
  });

  it('asked for by the spec (enabled: true), the same failure fails the pass to be retried', async () => {
    const { activities, objects } = routedCluster({ enabled: true });
    objects.failNext('list', kubeStatusError(403, 'Forbidden', 'gateways.gateway.networking.k8s.io is forbidden'), 'gateways');
    await expect(runActivity(activities.reconcileResource, ref)).rejects.toThrow(/forbidden/);
  });

  it('routing turned off removes our route, and cleanup removes it too, whatever status.gateway says', async () => {
    const { activities, objects, status } = routedCluster();
    await runActivity(activities.reconcileResource, ref);
    expect(objects.at(routeAt())).toBeDefined();
    // status.gateway gone (a server-side apply by another manager, an old status): no longer the marker.
    const md = objects.at(modelDeploymentResource(ref))!;
    objects.put(modelDeploymentResource(ref), { ...md, status: { ...status(), gateway: undefined }, spec: { ...(md.spec as object), gateway: { enabled: false } } });
    await runActivity(activities.reconcileResource, ref);
    expect(objects.at(routeAt())).toBeUndefined();
    objects.put(modelDeploymentResource(ref), { ...md, status: { ...status(), gateway: undefined } });
    await runActivity(activities.reconcileResource, ref);
    expect(objects.at(routeAt())).toBeDefined();
    objects.put(modelDeploymentResource(ref), { ...objects.at(modelDeploymentResource(ref))!, status: { gateway: undefined } });
    expect(await runActivity(activities.cleanupResources, ref)).toMatchObject({ gone: true });
    expect(objects.at(routeAt())).toBeUndefined();
  });

  it("a user's own route (httpRouteRef) is judged against the Gateway it attaches to, from its parentRefs", async () => {
    const { activities, objects, condition, status } = routedCluster({ httpRouteRef: 'mine' });
    const other = { ...gatewayAt, namespace: 'edge', name: 'public' };
    objects.put(other, { metadata: {}, spec: { listeners: [{ name: 'web', protocol: 'HTTP', port: 80 }] }, status: { addresses: [{ value: '10.0.0.9' }] } });
    const accepted = { type: 'Accepted', status: 'True' };
    const parent = { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'public', namespace: 'edge' };
    objects.put(routeAt('mine'), { metadata: {}, spec: { parentRefs: [parent] }, status: { parents: [{ parentRef: parent, conditions: [accepted, { type: 'ResolvedRefs', status: 'True' }] }] } } as AnyObject);
    objects.calls.length = 0;
    await runActivity(activities.reconcileResource, ref);
    expect(condition()).toMatchObject({ status: 'True', reason: 'RouteAccepted' });
    // Read once to find its Gateway, and that read judged: not a second GET in the same pass.
    expect(objects.calls.filter((c) => c === 'get httproutes/mine')).toHaveLength(1);
    expect(status()?.gateway).toMatchObject({ gatewayName: 'public', gatewayNamespace: 'edge', endpoint: 'http://10.0.0.9' });
    expect(objects.at(routeAt())).toBeUndefined();
  });

  it("a user's route that does not exist is said, by name, even without spec.gateway.enabled", async () => {
    const { activities, condition } = routedCluster({ httpRouteRef: 'missing' });
    await runActivity(activities.reconcileResource, ref);
    expect(condition()).toMatchObject({ status: 'False', reason: 'RouteNotFound' });
  });
});
