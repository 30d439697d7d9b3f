// What `dev` starts, as data: the same description the composition root starts for `run`.
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { describeLocalProduct } from './local-product.ts';
import type { Stack } from './stack.ts';

const stack = {
  kubeconfigPath: '/tmp/kubeconfig',
  temporalAddress: '127.0.0.1:7233',
  temporalNamespace: 'default',
  health: () => ({ ok: false, down: [{ name: 'kube-apiserver', since: Date.now() - 3_000, reason: 'exited (signal SIGKILL)' }] }),
} as unknown as Stack;

describe('describeLocalProduct', () => {
  it('the whole product with simulators, the webhook on the local API server and metrics on loopback', () => {
    const d = describeLocalProduct(stack, new KubeConfig(), { webhook: true, simulatedReadyAfterMs: 5_000, metricsPort: 9090 });
    expect(d).toMatchObject({
      temporal: { address: '127.0.0.1:7233', namespace: 'default' },
      core: true,
      watcher: true,
      providers: ['deployment', 'dynamo', 'kaito', 'kuberay'],
      metrics: { port: 9090, host: '127.0.0.1' },
      webhook: { namespace: 'kubeairunway-system', register: {} },
      simulators: { readyAfterMs: 5_000, realOperators: [] },
      health: { temporalLink: true, watches: true },
    });
    expect(d.namespaces).toBeUndefined();
    expect(d.health!.sources!.flatMap((s) => s())).toEqual(['kube-apiserver (exited (signal SIGKILL) 3s ago; restarting)']);
  });

  it('without the webhook or metrics when not asked for (the bench)', () => {
    const d = describeLocalProduct(stack, new KubeConfig(), { webhook: false, simulatedReadyAfterMs: 0, settings: { taskQueuePrefix: 'bench' } });
    expect(d.webhook).toBeUndefined();
    expect(d.metrics).toBeUndefined();
    expect(d.settings).toEqual({ taskQueuePrefix: 'bench' });
  });
});
