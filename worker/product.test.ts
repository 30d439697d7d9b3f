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

  it('the activator after the controller (whose client it signals with), so it stops before it; only with a controller', () => {
    expect(names({ core: true, watcher: true, activator: { port: 0, host: '127.0.0.1' } })).toEqual(['search attributes', 'informers', 'controller', 'activator', 'temporal link']);
    expect(names({ webhook: { namespace: 'x' }, activator: { port: 0, host: '127.0.0.1' } })).toEqual(['webhook']);
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
