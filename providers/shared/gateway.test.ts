import { describe, expect, it } from 'vitest';
import { applyDefaults } from '../../api/defaults.ts';
import { builtinProviders } from '../index.ts';
import { example1, example2, goldenText, modelDeployment } from '../testing/fixtures.ts';
import { gatewayModelName, HTTP_ROUTE_API_VERSION, MODEL_NAME_HEADER, renderGatewayObjects, type GatewayPlan } from './gateway.ts';

const gateway = { name: 'inference', namespace: 'gateways' };
const routed: GatewayPlan = { gateway };
const pooled: GatewayPlan = { gateway, inferencePool: { endpointPicker: { name: 'llama-8b-epp', port: 9002 } } };

describe('gateway objects', () => {
  it.each(builtinProviders.map((p) => [p.name, p] as const))('route to the %s provider\'s serving Service, and a pool of its serving pods (goldens)', async (name, provider) => {
    const md = provider.name === 'kaito' ? example2() : example1();
    const serving = provider.servingEndpoint(md);
    const [route] = renderGatewayObjects(md, serving, routed);
    expect(route!.spec).toMatchObject({ rules: [{ backendRefs: [{ kind: 'Service', name: serving.service, port: serving.port }] }] });
    await expect(goldenText(renderGatewayObjects(md, serving, pooled))).toMatchFileSnapshot(`./__golden__/gateway/${name}.yaml`);
  });

  it("names the Service each provider's status reports as its endpoint", () => {
    for (const provider of builtinProviders) {
      const md = provider.name === 'kaito' ? example2() : example1();
      const rendered = provider.render(md, { apiVersion: `${provider.resource.group ? `${provider.resource.group}/` : ''}${provider.resource.versions[0]}` }).objects[0]!;
      const endpoint = provider.mapStatus(rendered, { Deployment: [rendered], Pod: [] }).endpoint;
      expect(endpoint, provider.name).toEqual({ service: provider.servingEndpoint(md).service, port: provider.servingEndpoint(md).port });
    }
  });

  it('matches the model name header on every path, attached to the planned Gateway', () => {
    const md = example1();
    const [route] = renderGatewayObjects(md, builtinProviders[0]!.servingEndpoint(md), routed);
    expect(route).toMatchObject({
      apiVersion: HTTP_ROUTE_API_VERSION,
      kind: 'HTTPRoute',
      metadata: { name: 'llama-8b', namespace: 'default' },
      spec: {
        parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'inference', namespace: 'gateways' }],
        rules: [{ matches: [{ headers: [{ name: MODEL_NAME_HEADER, type: 'Exact', value: gatewayModelName(md) }], path: { type: 'PathPrefix', value: '/' } }] }],
      },
    });
  });

  it('points the route at the pool when there is one, and the pool at the endpoint picker', () => {
    const md = example1();
    const objects = renderGatewayObjects(md, builtinProviders[0]!.servingEndpoint(md), pooled);
    expect(objects.map((o) => o.kind)).toEqual(['InferencePool', 'HTTPRoute']);
    expect(objects[1]!.spec).toMatchObject({ rules: [{ backendRefs: [{ group: 'inference.networking.k8s.io', kind: 'InferencePool', name: 'llama-8b' }] }] });
    expect(objects[0]!.spec).toMatchObject({ endpointPickerRef: { kind: 'Service', name: 'llama-8b-epp', port: { number: 9002 } } });
  });

  it('renders nothing without a Gateway or when turned off, and no route of ours beside the user\'s', () => {
    const md = example1();
    const serving = builtinProviders[0]!.servingEndpoint(md);
    expect(renderGatewayObjects(md, serving, {})).toEqual([]);
    expect(renderGatewayObjects(modelDeployment('llama-8b', { ...md.spec, gateway: { enabled: false } }), serving, routed)).toEqual([]);
    const own = modelDeployment('llama-8b', { ...md.spec, gateway: { httpRouteRef: 'mine' } });
    expect(renderGatewayObjects(own, serving, routed)).toEqual([]);
    expect(renderGatewayObjects(own, serving, pooled).map((o) => o.kind)).toEqual(['InferencePool']);
  });

  it('takes the model name from spec.gateway.modelName, else the served name (defaulted or not), else a custom model id', () => {
    const md = example1();
    expect(gatewayModelName(modelDeployment('llama-8b', { ...md.spec, gateway: { modelName: 'chat' } }))).toBe('chat');
    expect(gatewayModelName(modelDeployment('llama-8b', { ...md.spec, model: { ...md.spec.model, servedName: 'served' } }))).toBe('served');
    expect(gatewayModelName(md)).toBe('Llama-3.1-8B-Instruct');
    expect(gatewayModelName(modelDeployment('llama-8b', applyDefaults(md.spec)))).toBe('Llama-3.1-8B-Instruct');
    expect(gatewayModelName(modelDeployment('tiny', { model: { source: 'custom', id: '/models/tiny.gguf', servedName: 'ignored' } }))).toBe('/models/tiny.gguf');
    expect(gatewayModelName(modelDeployment('tiny', { model: { source: 'custom' } }))).toBe('tiny');
  });

  it('is pure: the same input gives the same bytes, owned by the deployment', () => {
    const md = example1();
    const serving = builtinProviders[0]!.servingEndpoint(md);
    const a = JSON.stringify(renderGatewayObjects(md, serving, pooled));
    expect(JSON.stringify(renderGatewayObjects(structuredClone(md), serving, pooled))).toBe(a);
    for (const o of renderGatewayObjects(md, serving, pooled)) expect(o.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'ModelDeployment', name: 'llama-8b', controller: true })]);
  });
});
