// What `run` starts, from its flags, as data: the same description the composition root starts for dev.
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../observability/logger.ts';
import { Command } from 'commander';
import { flagName, runFlags } from '../../kinds/run-flags.ts';
import { runCommand } from '../commands/run.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
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
      providers: ['deployment', 'dynamo', 'kaito', 'kuberay'],
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

describe("the kind modules' flags", () => {
  it('are offered by `run` as each module declares them, under the value names the parts read', () => {
    const program = new Command();
    runCommand(program, { io: {} as CliIO });
    const run = program.commands.find((c) => c.name() === 'run')!;
    const declared = runFlags();
    expect(declared.map((f) => f.flag.split(' ')[0])).toEqual(expect.arrayContaining(['--amqp-url', '--node', '--node-name', '--containerd-socket', '--activator-port', '--activator-address']));
    for (const flag of declared) {
      const option = run.options.find((o) => o.long === flag.flag.split(' ')[0]);
      expect(option?.attributeName(), flag.flag).toBe(flagName(flag));
      expect(option?.envVar).toBe(flag.env);
    }
  });

  it("reach the product checked, with the parts they start; a part's objection is the command's error", () => {
    const opts = { ...defaults, activatorPort: '8480', activatorAddress: '0.0.0.0', amqpUrl: 'amqp://broker' };
    const plan = planRun(opts);
    expect(plan.kindParts).toEqual(['activator']);
    expect(described(opts).flags).toEqual({ activatorPort: 8480, activatorAddress: '0.0.0.0', amqpUrl: 'amqp://broker' });
    // `--node` alone: the node worker, a DaemonSet's process, and nothing else.
    expect(planRun({ ...defaults, node: true, nodeName: 'n1' })).toMatchObject({ parts: { core: false, watcher: false, providers: [], webhook: false }, kindParts: ['node worker'] });
    expect(() => planRun({ ...defaults, node: true })).toThrow("--node needs the node's name: --node-name or NODE_NAME (in a DaemonSet, from spec.nodeName).");
    expect(() => planRun({ ...defaults, node: true })).toThrow(CliError);
    expect(() => planRun({ ...defaults, activatorPort: '99999' })).toThrow('--activator-port takes a port number from 0 to 65535');
    // The webhook alone starts no controller, so no part beside it.
    expect(planRun({ ...defaults, webhook: true, activatorPort: '8480' }).kindParts).toEqual([]);
  });
});
