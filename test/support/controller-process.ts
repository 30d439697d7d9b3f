// A controller in its own process, so tests can kill it with SIGKILL and start it again.
// Usage: tsx test/support/controller-process.ts '<json options>'; prints READY when running. Tests start,
// kill and restart it through test/support/crash-harness.ts.
import { KubeConfig } from '@kubernetes/client-node';
import { builtinProviders } from '../../providers/index.ts';
import { startController } from '../../worker/controller.ts';
import { startWebhookServer } from '../../webhook/index.ts';
import { startSimulator } from '../../devstack/simulators/simulator.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import type { ControllerProcessOptions } from './crash-harness.ts';

const opts = JSON.parse(process.argv[2] ?? '{}') as ControllerProcessOptions;
const kc = new KubeConfig();
kc.loadFromFile(opts.kubeconfigPath);
// A process of only simulators or only the webhook talks to no Temporal server.
const controller =
  opts.core || opts.watcher || opts.providers
    ? await startController({
        kc,
        temporalAddress: opts.temporalAddress,
        temporalNamespace: opts.temporalNamespace,
        core: opts.core,
        watcher: opts.watcher,
        providers: opts.providers ? builtinProviders : [],
        settings: opts.settings,
        namespaces: opts.namespaces,
        heartbeatMs: 2_000,
        providerCrdPollMs: 1_000,
        ...(opts.amqpUrl ? { flags: { amqpUrl: opts.amqpUrl } } : {}),
        ...(opts.workflowBundlePath ? { workflowBundle: { codePath: opts.workflowBundlePath } } : {}),
      })
    : undefined;
const webhook = opts.webhookNamespace ? await startWebhookServer({ kc, namespace: opts.webhookNamespace, register: {} }) : undefined;
const simulators = opts.simulators ? await Promise.all(UPSTREAM_SCRIPTS.map((s) => startSimulator(kc, s, { readyAfterMs: 1_000 }))) : [];
process.stdout.write('READY\n');
process.once('SIGTERM', async () => {
  await Promise.all(simulators.map((s) => s.stop()));
  await webhook?.stop();
  await controller?.stop();
  process.exit(0);
});
