// `kubeairunway run`: the controller against an existing cluster (kubeconfig or in-cluster) and Temporal
// server, until SIGTERM/SIGINT. Core, watcher and all built-in providers by default; --core, --watcher,
// --providers and --webhook pick exactly the parts to run (`run --webhook` is the webhook's Deployment).

import { Option, type Command } from 'commander';
import { withKubeOptions, withTemporalOptions } from '../operator/connection-options.ts';
import type { RunOptions } from '../operator/run-controller.ts';
import { action, type CommandRegistration } from '../program.ts';

export const runCommand: CommandRegistration = (program: Command, { io }) => {
  const command = program
    .command('run')
    .description('Run the controller against an existing cluster and Temporal server: core, watcher and every built-in provider, or only the parts named.')
    .option('--core', 'run the core worker (the ModelDeployment workflows and core activities)')
    .option('--watcher', 'run the watcher (turns ModelDeployment changes into workflow signals)')
    .option('--providers <names>', 'run these built-in provider workers, comma-separated: kaito,dynamo,kuberay')
    .option('--node', "run this node's worker beside containerd (Kybernate checkpoints); a DaemonSet's process")
    .addOption(new Option('--node-name <name>', 'the Kubernetes node this process runs on (with --node)').env('NODE_NAME'))
    .addOption(new Option('--containerd-socket <path>', "containerd's socket on this node (with --node; default /run/containerd/containerd.sock)").env('CONTAINERD_SOCKET'))
    .option('--namespaces <names>', 'watch only these namespaces, comma-separated (default: all)')
    .addOption(new Option('--enable-provider-selector [bool]', 'select a provider for deployments that name none (seed: --enable-provider-selector=false turns it off)').default(true))
    .option('--task-queue-prefix <prefix>', 'prefix of every task queue, to run several installations on one Temporal namespace', 'kubeairunway')
    .addOption(new Option('--amqp-url <url>', "RabbitMQ for AsyncActors' queues, amqp://user:password@host:port/vhost (without it, actors' queues are not managed)").env('ASYA_AMQP_URL'))
    .option('--resync-period <duration>', 'safety-net re-check of an idle deployment (default 10m)')
    .addOption(new Option('--workflow-cache <count>', 'workflows the core worker keeps in memory between their steps (sticky cache; default 300): more is faster at scale, ~0.2 MiB each').env('KUBEAIRUNWAY_WORKFLOW_CACHE'))
    .option('--cleanup-timeout <duration>', 'how long deletion waits for a provider to clean up before removing the finalizer (default 5m)')
    .option('--metrics-port <port>', 'port of the Prometheus /metrics endpoint (0: any free port)', '9090')
    .option('--metrics-address <host>', 'address the metrics endpoint listens on', '0.0.0.0')
    .option('--no-metrics', 'serve no metrics endpoint')
    .option('--activator-port <port>', "serve the KybernateWorkloads' activator (wake on request: /<namespace>/<workload>/<path>) on this port (0: any free port); none without it")
    .option('--activator-address <host>', 'address the activator listens on', '0.0.0.0')
    .option('--webhook', 'serve the admission webhook (validation and defaults); alone, unless other parts are named too')
    .option('--webhook-host <host>', 'address the webhook listens on', '0.0.0.0')
    .option('--webhook-port <port>', 'port the webhook listens on', '9443')
    .addOption(new Option('--webhook-namespace <name>', 'namespace of the webhook certificate Secret').env('POD_NAMESPACE').default('kubeairunway-system'))
    .option('--webhook-service <namespace/name>', 'register the webhook behind this Service (port 443) instead of its own URL; use in a cluster')
    .option('--no-webhook-register', 'leave the webhook configurations to the install manifests (the caBundle too)')
    .addOption(new Option('--log-level <level>', 'log level').choices(['trace', 'debug', 'info', 'warn', 'error']).env('LOG_LEVEL').default('info'));
  withTemporalOptions(withKubeOptions(command)).action(
    action(async (options: RunOptions) => {
      const { runRun } = await import('../operator/run-controller.ts');
      return runRun(io, options);
    }),
  );
};
