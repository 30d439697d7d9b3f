// `kubeairunway run`: the controller against an existing cluster (kubeconfig or in-cluster) and Temporal
// server, until SIGTERM/SIGINT. Core, watcher and all built-in providers by default; --core, --watcher,
// --providers and --webhook pick exactly the parts to run (`run --webhook` is the webhook's Deployment),
// and so does a kind's part named by a switch of its own (`--node`).

import { Option, type Command } from 'commander';
import { runFlags } from '../../kinds/run-flags.ts';
import { withKubeOptions, withTemporalOptions } from '../operator/connection-options.ts';
import type { RunOptions } from '../operator/run-controller.ts';
import { action, type CommandRegistration } from '../program.ts';

export const runCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('run')
    .description('Run the controller against an existing cluster and Temporal server: core, watcher and every built-in provider, or only the parts named.')
    .option('--core', 'run the core worker (the ModelDeployment workflows and core activities)')
    .option('--watcher', 'run the watcher (turns ModelDeployment changes into workflow signals)')
    .option('--providers <names>', 'run these built-in provider workers, comma-separated: kaito,dynamo,kuberay,deployment')
    .option('--namespaces <names>', 'watch only these namespaces, comma-separated (default: all)')
    .addOption(new Option('--enable-provider-selector [bool]', 'select a provider for deployments that name none (seed: --enable-provider-selector=false turns it off)').default(true))
    .option('--task-queue-prefix <prefix>', 'prefix of every task queue, to run several installations on one Temporal namespace', 'kubeairunway')
    .option('--resync-period <duration>', 'safety-net re-check of an idle deployment (default 10m)')
    .addOption(new Option('--workflow-cache <count>', 'workflows the core worker keeps in memory between their steps (sticky cache; default 300): more is faster at scale, ~0.2 MiB each').env('KUBEAIRUNWAY_WORKFLOW_CACHE'))
    .option('--cleanup-timeout <duration>', 'how long deletion waits for a provider to clean up before removing the finalizer (default 5m)')
    .option('--metrics-port <port>', 'port of the Prometheus /metrics endpoint (0: any free port)', '9090')
    .option('--metrics-address <host>', 'address the metrics endpoint listens on', '0.0.0.0')
    .option('--no-metrics', 'serve no metrics endpoint')
    .option('--gateway-name <name>', 'the Gateway every deployment routes through unless its spec.gateway.gatewayRef names another (default: the one Gateway of the cluster, or the one labelled kubeairunway.ai/inference-gateway=true)')
    .option('--gateway-namespace <name>', "namespace of --gateway-name (default: each deployment's own)")
    .addOption(new Option('--gateway-backend <kind>', 'what a route sends requests to: an InferencePool where its CRD is served (auto), always the Service, or always an InferencePool').choices(['auto', 'service', 'inference-pool']).default('auto'))
    .option('--endpoint-picker <name:port>', "the endpoint picker Service an InferencePool names ({name}: the deployment's name), e.g. {name}-epp:9002; none by default")
    .option('--webhook', 'serve the admission webhook (validation and defaults); alone, unless other parts are named too')
    .option('--webhook-host <host>', 'address the webhook listens on', '0.0.0.0')
    .option('--webhook-port <port>', 'port the webhook listens on', '9443')
    .addOption(new Option('--webhook-namespace <name>', 'namespace of the webhook certificate Secret').env('POD_NAMESPACE').default('kubeairunway-system'))
    .option('--webhook-service <namespace/name>', 'register the webhook behind this Service (port 443) instead of its own URL; use in a cluster')
    .option('--no-webhook-register', 'leave the webhook configurations to the install manifests (the caBundle too)')
    .addOption(new Option('--log-level <level>', 'log level').choices(['trace', 'debug', 'info', 'warn', 'error']).env('LOG_LEVEL').default('info'));
  // The kind modules' own flags (the Kybernate node worker and activator, AsyncActors' broker …), as their
  // registrations declare them: a kind with a part or a connection of its own edits nothing here.
  for (const flag of runFlags()) {
    const option = new Option(flag.flag, flag.description);
    if (flag.env) option.env(flag.env);
    if (flag.default !== undefined) option.default(flag.default);
    command.addOption(option);
  }
  withTemporalOptions(withKubeOptions(command)).action(
    action(async (options: RunOptions) => {
      const { runRun } = await import('../operator/run-controller.ts');
      return runRun(io, options);
    }),
  );
};
