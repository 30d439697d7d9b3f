import { describe, expect, it } from 'vitest';
import { example1 } from '../testing/fixtures.ts';
import { endpointOf, gatewayReport } from './gateway-status.ts';

const gateway = { name: 'inference', namespace: 'gateways' };
const liveGateway = {
  metadata: { name: 'inference', namespace: 'gateways' },
  spec: { listeners: [{ name: 'web', port: 8000, protocol: 'HTTP' }] },
  status: { addresses: [{ type: 'IPAddress', value: '127.0.0.1' }] },
};

/** An HTTPRoute as a Gateway's controller writes its status (Gateway API v1: status.parents[].conditions). */
function route(conditions: { type: string; status: string; reason?: string; message?: string; observedGeneration?: number }[], generation = 1) {
  return {
    metadata: { name: 'llama-8b', namespace: 'default', generation },
    status: { parents: [{ controllerName: 'traefik.io/gateway-controller', parentRef: { group: 'gateway.networking.k8s.io', kind: 'Gateway', name: 'inference', namespace: 'gateways' }, conditions }] },
  };
}

describe('gateway status', () => {
  it('is ready when the Gateway accepted the route and resolved its backend, and says where to call', () => {
    const report = gatewayReport(example1(), gateway, 'llama-8b', route([{ type: 'Accepted', status: 'True' }, { type: 'ResolvedRefs', status: 'True' }]), liveGateway);
    expect(report.condition).toEqual({ type: 'GatewayReady', status: 'True', reason: 'RouteAccepted', message: "HTTPRoute 'llama-8b' accepted by Gateway 'gateways/inference'" });
    expect(report.status).toEqual({ endpoint: 'http://127.0.0.1:8000', modelName: 'Llama-3.1-8B-Instruct', gatewayName: 'inference', gatewayNamespace: 'gateways', apiFormats: ['openai'] });
  });

  it("shows the Gateway's own reason when it refuses the route or cannot resolve its backend", () => {
    const refused = gatewayReport(example1(), gateway, 'llama-8b', route([{ type: 'Accepted', status: 'False', reason: 'NotAllowedByListeners', message: 'no listener allows this namespace' }]), liveGateway);
    expect(refused.condition).toMatchObject({ status: 'False', reason: 'NotAllowedByListeners' });
    expect(refused.condition.message).toBe("Gateway 'gateways/inference' did not accept HTTPRoute 'llama-8b' (NotAllowedByListeners: no listener allows this namespace)");
    const unresolved = gatewayReport(example1(), gateway, 'llama-8b', route([{ type: 'Accepted', status: 'True' }, { type: 'ResolvedRefs', status: 'False', reason: 'BackendNotFound' }]), liveGateway);
    expect(unresolved.condition).toMatchObject({ status: 'False', reason: 'BackendNotFound' });
  });

  it('waits (Unknown) while the Gateway has not answered for this generation of the route', () => {
    expect(gatewayReport(example1(), gateway, 'llama-8b', route([]), liveGateway).condition).toMatchObject({ status: 'Unknown', reason: 'RoutePending' });
    const stale = route([{ type: 'Accepted', status: 'True', observedGeneration: 1 }], 2);
    expect(gatewayReport(example1(), gateway, 'llama-8b', stale, liveGateway).condition).toMatchObject({ status: 'Unknown' });
    const otherGateway = { ...route([{ type: 'Accepted', status: 'True' }]) };
    otherGateway.status.parents[0]!.parentRef.name = 'other';
    expect(gatewayReport(example1(), gateway, 'llama-8b', otherGateway, liveGateway).condition).toMatchObject({ status: 'Unknown' });
  });

  it('names a missing Gateway or route', () => {
    expect(gatewayReport(example1(), gateway, 'llama-8b', undefined, undefined).condition).toMatchObject({ status: 'False', reason: 'GatewayNotFound' });
    expect(gatewayReport(example1(), gateway, 'llama-8b', undefined, liveGateway).condition).toMatchObject({ status: 'False', reason: 'RouteNotCreated' });
  });

  it('builds the endpoint from the first address and the first HTTP listener (default ports left out)', () => {
    expect(endpointOf(undefined)).toBe('');
    expect(endpointOf({ ...liveGateway, status: {} })).toBe('');
    expect(endpointOf({ ...liveGateway, spec: { listeners: [{ port: 80, protocol: 'HTTP' }] } })).toBe('http://127.0.0.1');
    expect(endpointOf({ spec: { listeners: [{ port: 8443, protocol: 'HTTPS' }] }, status: { addresses: [{ value: 'fd00::1' }] } })).toBe('https://[fd00::1]:8443');
    expect(endpointOf({ spec: { listeners: [{ port: 80, protocol: 'HTTP' }] }, status: { addresses: [{ type: 'Hostname', value: 'gw.example.com' }] } })).toBe('http://gw.example.com');
  });
});
