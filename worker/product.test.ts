import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger.ts';
import { plainLog } from './product-log.ts';
import { productParts, startProduct, type ProductDescription } from './product.ts';

const base: ProductDescription = {
  kc: new KubeConfig(),
  temporal: { address: '127.0.0.1:1', namespace: 'default' },
  core: false,
  watcher: false,
  providers: [],
  log: plainLog(() => {}, { steps: createLogger({ level: 'silent' }) }),
};
const names = (d: Partial<ProductDescription>) => productParts({ ...base, ...d }).map((p) => p.name);

describe('productParts', () => {
  it('the whole controller with metrics and webhook: search attributes before any workflow, the Temporal link after the controller', () => {
    expect(names({ core: true, watcher: true, providers: ['kaito'], metrics: { port: 0, host: '127.0.0.1' }, webhook: { namespace: 'x' } })).toEqual([
      'search attributes',
      'informers',
      'metrics',
      'controller',
      'temporal link',
      'webhook',
    ]);
  });

  it('the local stack adds the simulators last', () => {
    expect(names({ core: true, watcher: true, providers: ['kaito'], webhook: { namespace: 'x' }, simulators: { start: async () => ({ stop: async () => {} }) } })).toEqual([
      'search attributes',
      'informers',
      'controller',
      'temporal link',
      'webhook',
      'simulators',
    ]);
  });

  it("the kinds' parts their flags ask for after the controller (whose connection and client they use), so they stop before it; only with a controller", () => {
    expect(names({ core: true, watcher: true, flags: { activatorPort: 0 } })).toEqual(['search attributes', 'informers', 'controller', 'activator', 'temporal link']);
    expect(names({ core: true, flags: { amqpUrl: 'amqp://x' } })).toEqual(['search attributes', 'informers', 'controller', 'temporal link']);
    expect(names({ webhook: { namespace: 'x' }, flags: { activatorPort: 0 } })).toEqual(['webhook']);
  });

  it('a part named by a switch of its own (--node) runs the controller for it alone; a flag it cannot use fails before anything starts', () => {
    expect(names({ flags: { node: true, nodeName: 'n1' } })).toEqual(['informers', 'controller', 'node worker', 'temporal link']);
    expect(names({ flags: { node: true, nodeName: 'n1', activatorPort: 8480 } })).toEqual(['informers', 'controller', 'node worker', 'activator', 'temporal link']);
    expect(() => names({ flags: { node: true } })).toThrow("--node needs the node's name: --node-name or NODE_NAME (in a DaemonSet, from spec.nodeName).");
  });

  it('a provider alone starts no workflows, so it registers no search attributes', () => {
    expect(names({ providers: ['kaito'] })).toEqual(['informers', 'controller', 'temporal link']);
  });

  it('the webhook alone needs no Temporal connection and starts no worker', () => {
    expect(names({ webhook: { namespace: 'x' }, metrics: { port: 0, host: '127.0.0.1' } })).toEqual(['metrics', 'webhook']);
  });

  it('builds the list without starting anything', () => {
    // No Temporal server at 127.0.0.1:1 and no cluster in the empty kubeconfig: starting would fail.
    expect(() => productParts({ ...base, core: true, watcher: true })).not.toThrow();
  });
});

describe('startProduct', () => {
  it('reports what its health sources say is down', async () => {
    let down: string[] = [];
    const product = await startProduct({ ...base, health: { temporalLink: true, sources: [() => down, () => []] } });
    expect(product.parts).toEqual([]);
    expect(product.health()).toEqual({ ok: true, down: [] });
    down = ['kube-apiserver (exited 3s ago; restarting)'];
    expect(product.health()).toEqual({ ok: false, down });
    await product.stop();
  });

  it('is always healthy without health sources', async () => {
    const product = await startProduct(base);
    expect(product.health()).toEqual({ ok: true, down: [] });
    await product.stop();
  });
});
