// What `run` starts, from its flags, as data: the same description the composition root starts for dev.
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../observability/logger.ts';
import { describeRun, planRun, type RunOptions } from './run-controller.ts';

const defaults: RunOptions = {
  enableProviderSelector: true,
  taskQueuePrefix: 'kubeairunway',
  metrics: true,
  metricsPort: '9090',
  metricsAddress: '0.0.0.0',
  webhookHost: '0.0.0.0',
  webhookPort: '9443',
  webhookNamespace: 'kubeairunway-system',
  webhookRegister: true,
  logLevel: 'info',
  temporalAddress: 'temporal:7233',
  temporalNamespace: 'default',
};

function described(flags: Partial<RunOptions>) {
  const opts = { ...defaults, ...flags };
  const temporal = { address: 'temporal:7233', namespace: 'default', apiKey: 'k' };
  return describeRun(opts, planRun(opts), { kc: new KubeConfig(), temporal, logger: createLogger({ level: 'silent' }) });
}

describe('describeRun', () => {
  it('no part named: the controller with metrics, no webhook, no simulators, /healthz always ok', () => {
    const d = described({ namespaces: 'a,b', resyncPeriod: '1m' });
    expect(d).toMatchObject({
      temporal: { address: 'temporal:7233', namespace: 'default', connection: { apiKey: 'k' } },
      core: true,
      watcher: true,
      providers: ['dynamo', 'kaito', 'kuberay'],
      namespaces: ['a', 'b'],
      settings: { providerSelectorEnabled: true, taskQueuePrefix: 'kubeairunway', resyncPeriod: '1m' },
      metrics: { port: 9090, host: '0.0.0.0' },
    });
    expect(d.webhook).toBeUndefined();
    expect(d.simulators).toBeUndefined();
    expect(d.health).toBeUndefined();
    expect(d).not.toHaveProperty('maxCachedWorkflows');
    expect(described({ workflowCache: '1200' }).maxCachedWorkflows).toBe(1200);
  });

  it('the webhook behind a Service, registered, or left to the manifests', () => {
    expect(described({ webhook: true, webhookService: 'ns/svc', metrics: false })).toMatchObject({
      core: false,
      watcher: false,
      providers: [],
      webhook: { namespace: 'kubeairunway-system', host: '0.0.0.0', port: 9443, register: { endpoint: { service: { namespace: 'ns', name: 'svc', port: 443 } } } },
    });
    expect(described({ webhook: true }).webhook).toMatchObject({ register: {} });
    expect(described({ webhook: true, webhookRegister: false }).webhook).not.toHaveProperty('register');
    expect(described({ webhook: true, metrics: false }).metrics).toBeUndefined();
  });
});
