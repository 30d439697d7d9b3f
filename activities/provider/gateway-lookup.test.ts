import { describe, expect, it } from 'vitest';
import type { AnyObject, CollectionRef, ResourceRef } from '../../kube/custom-objects.ts';
import { modelDeployment } from '../../providers/golden-inputs.ts';
import type { InformerSet } from '../../kube/informer-set.ts';
import { GatewayLookup, INFERENCE_GATEWAY_LABEL, type GatewayDefaults } from './gateway-lookup.ts';

const HTTPROUTE_CRD = 'httproutes.gateway.networking.k8s.io';
const POOL_CRD = 'inferencepools.inference.networking.k8s.io';

/** The two reads the lookup makes, over a fixed set of CRDs and Gateways (no informers: every read asks). */
function cluster(crds: string[], gateways: AnyObject[]) {
  return {
    get: async (ref: ResourceRef) => (ref.plural === 'customresourcedefinitions' && crds.includes(ref.name) ? { metadata: { name: ref.name } } : gateways.find((g) => g.metadata?.name === ref.name && g.metadata?.namespace === ref.namespace)),
    list: async (ref: CollectionRef) => (ref.plural === 'gateways' ? gateways : []),
  };
}
const gateway = (name: string, namespace = 'gateways', labels: Record<string, string> = {}): AnyObject => ({ metadata: { name, namespace, labels } });
const md = (gatewaySpec?: object) => modelDeployment('llama', { model: { id: 'org/llama' }, ...(gatewaySpec ? { gateway: gatewaySpec } : {}) });
const lookup = (crds: string[], gateways: AnyObject[], defaults: GatewayDefaults = { backend: 'auto' }) => new GatewayLookup(cluster(crds, gateways), undefined, defaults);

describe('which Gateway a deployment routes through', () => {
  it('none, silently, where the Gateway API is not installed; said when the spec asks for routing', async () => {
    expect(await lookup([], []).decide(md())).toEqual({ plan: {} });
    expect((await lookup([], []).decide(md({ enabled: true }))).problem).toMatchObject({ type: 'GatewayReady', status: 'False', reason: 'GatewayAPINotInstalled' });
  });

  it('the one Gateway of the cluster, else the one labelled, else none (said only when asked for)', async () => {
    expect((await lookup([HTTPROUTE_CRD], [gateway('only')]).decide(md())).plan).toEqual({ gateway: { name: 'only', namespace: 'gateways' } });
    const two = [gateway('a'), gateway('b', 'other', { [INFERENCE_GATEWAY_LABEL]: 'true' })];
    expect((await lookup([HTTPROUTE_CRD], two).decide(md())).plan).toEqual({ gateway: { name: 'b', namespace: 'other' } });
    const unlabelled = [gateway('a'), gateway('b')];
    expect(await lookup([HTTPROUTE_CRD], unlabelled).decide(md())).toEqual({ plan: {} });
    expect((await lookup([HTTPROUTE_CRD], unlabelled).decide(md({ enabled: true }))).problem?.message).toBe(
      `2 Gateways found and none labelled ${INFERENCE_GATEWAY_LABEL}=true: name one with spec.gateway.gatewayRef (or label exactly one)`,
    );
    expect((await lookup([HTTPROUTE_CRD], []).decide(md({ enabled: true }))).problem).toMatchObject({ reason: 'NoGateway' });
  });

  it("spec.gateway.gatewayRef first (its namespace defaulting to the deployment's), then the controller's flag", async () => {
    const many = [gateway('a'), gateway('b')];
    expect((await lookup([HTTPROUTE_CRD], many).decide(md({ gatewayRef: { name: 'mine' } }))).plan.gateway).toEqual({ name: 'mine', namespace: 'default' });
    const flagged = lookup([HTTPROUTE_CRD], many, { backend: 'auto', gateway: { name: 'flagged', namespace: 'infra' } });
    expect((await flagged.decide(md())).plan.gateway).toEqual({ name: 'flagged', namespace: 'infra' });
    expect((await flagged.decide(md({ gatewayRef: { name: 'mine', namespace: 'x' } }))).plan.gateway).toEqual({ name: 'mine', namespace: 'x' });
    expect(await flagged.decide(md({ enabled: false }))).toEqual({ plan: {} });
  });

  it('an InferencePool where its CRD is served (auto), never with backend service, and a problem when required but missing', async () => {
    const picker = { name: '{name}-epp', port: 9002 };
    expect((await lookup([HTTPROUTE_CRD, POOL_CRD], [gateway('g')], { backend: 'auto', endpointPicker: picker }).decide(md())).plan.inferencePool).toEqual({ endpointPicker: { name: 'llama-epp', port: 9002 } });
    expect((await lookup([HTTPROUTE_CRD, POOL_CRD], [gateway('g')], { backend: 'service' }).decide(md())).plan.inferencePool).toBeUndefined();
    expect((await lookup([HTTPROUTE_CRD], [gateway('g')]).decide(md())).plan.inferencePool).toBeUndefined();
    const required = await lookup([HTTPROUTE_CRD], [gateway('g')], { backend: 'inference-pool' }).decide(md());
    expect(required.problem).toMatchObject({ reason: 'InferencePoolNotInstalled' });
    expect(required.plan).toEqual({ gateway: { name: 'g', namespace: 'gateways' } });
  });

  it("reads a route the cache does not hold yet from the API server: one applied a moment ago is not 'not found'", async () => {
    const route = { metadata: { name: 'llama', namespace: 'default' } };
    const objects = { get: async (ref: ResourceRef) => (ref.plural === 'httproutes' ? route : undefined), list: async () => [] };
    const emptyCache = { cached: () => ({ known: true as const, object: undefined }) } as unknown as InformerSet;
    expect(await new GatewayLookup(objects, emptyCache, { backend: 'auto' }).route('default', 'llama', true)).toBe(route);
  });
});
