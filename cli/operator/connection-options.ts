// The flags that say which cluster and which Temporal server an operator command talks to. Only
// commander here: the clients are loaded when a command runs (session.ts), never for `--help`.

import { Option, type Command } from 'commander';

export interface KubeOptions {
  kubeconfig?: string;
  context?: string;
}

export interface TemporalOptions {
  temporalAddress: string;
  temporalNamespace: string;
  temporalTls?: boolean;
  temporalTlsCert?: string;
  temporalTlsKey?: string;
  temporalTlsCa?: string;
  temporalTlsServerName?: string;
  temporalApiKey?: string;
}

export const DEFAULT_TEMPORAL_ADDRESS = '127.0.0.1:7233';
export const DEFAULT_TEMPORAL_UI = 'http://127.0.0.1:8233';

/** What `--kind` takes; the kinds themselves are loaded only when a command runs (kinds.ts). */
export const KIND_OPTION_HELP = 'kind of the target: its name, plural or short name, in any case, e.g. flamecluster or fc (default: ModelDeployment)';

/** The [KIND/]NAMESPACE/NAME argument and its `-n` and `--kind` companions, shared by the commands that act on one object. */
export function withTargetArgument(command: Command): Command {
  return command
    .argument('<target>', 'KIND/NAMESPACE/NAME, NAMESPACE/NAME or NAME (with -n); without KIND, a ModelDeployment (or the --kind)')
    .option('-n, --namespace <name>', "namespace of NAME (default: the kubeconfig context's)")
    .option('--kind <kind>', KIND_OPTION_HELP);
}

export function withKubeOptions(command: Command): Command {
  return command
    .addOption(new Option('--kubeconfig <path>', 'kubeconfig file (default: $KUBECONFIG, ~/.kube/config, or the in-cluster service account)'))
    .addOption(new Option('--context <name>', 'kubeconfig context to use (default: the current context)'));
}

export function withTemporalOptions(command: Command): Command {
  return command
    .addOption(new Option('--temporal-address <host:port>', 'Temporal frontend').env('TEMPORAL_ADDRESS').default(DEFAULT_TEMPORAL_ADDRESS))
    .addOption(new Option('--temporal-namespace <name>', 'Temporal namespace').env('TEMPORAL_NAMESPACE').default('default'))
    .addOption(new Option('--temporal-tls', 'connect with TLS (implied by the other --temporal-tls-* options and by an API key)'))
    .addOption(new Option('--temporal-tls-cert <path>', 'client certificate for mutual TLS (PEM)').env('TEMPORAL_TLS_CERT'))
    .addOption(new Option('--temporal-tls-key <path>', 'client private key for mutual TLS (PEM)').env('TEMPORAL_TLS_KEY'))
    .addOption(new Option('--temporal-tls-ca <path>', 'CA certificate to trust instead of the system roots (PEM)').env('TEMPORAL_TLS_CA'))
    .addOption(new Option('--temporal-tls-server-name <name>', 'server name to verify, when it differs from the address host'))
    .addOption(new Option('--temporal-api-key <key>', 'API key (Temporal Cloud)').env('TEMPORAL_API_KEY'));
}
