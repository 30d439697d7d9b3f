// Every command of `kubeairunway`, as the root's help lists it, and how to load its module. A call loads
// only the module of the command it runs (`kar status` never loads the validators, the renderers or
// the CEL engine; `kar --help` loads none): each module is a dynamic import, and the root's help is
// printed from the `term` and `summary` here. command-index.test.ts checks that they match what each
// module registers, word for word. To add a command: add its line here.

import type { CliIO } from './io.ts';
import { runCli, type CommandRegistration, type ExitCode, type ListedCommand } from './program.ts';

export interface IndexedCommand extends ListedCommand {
  load(): Promise<CommandRegistration>;
}

export const COMMAND_INDEX: readonly IndexedCommand[] = [
  {
    name: 'validate',
    term: 'validate [options]',
    summary: 'Check ModelDeployment, FlameCluster, AsyncActor and Kybernate manifests offline, as the cluster would.',
    load: async () => (await import('./commands/validate.ts')).validateCommand,
  },
  {
    name: 'render',
    term: 'render [options]',
    summary: 'Print the resources the controller would create for ModelDeployments, FlameClusters, AsyncActors and Kybernate kinds.',
    load: async () => (await import('./commands/render.ts')).renderCommand,
  },
  {
    name: 'explain',
    term: 'explain [options]',
    summary: 'Show which provider would be selected for ModelDeployments, and why the others would not.',
    load: async () => (await import('./commands/explain.ts')).explainCommand,
  },
  {
    name: 'conformance',
    term: 'conformance [options]',
    summary: "Check that the cluster's installed provider CRDs accept every object kubeairunway renders (server-side dry-run, nothing is created).",
    load: async () => (await import('./commands/conformance.ts')).conformanceCommand,
  },
  {
    name: 'dev',
    term: 'dev [options]',
    summary: 'run kubeairunway on an embedded local stack (etcd, kube-apiserver, kube-controller-manager, Temporal with its UI)',
    load: async () => (await import('./commands/dev.ts')).devCommand,
  },
  {
    name: 'run',
    term: 'run [options]',
    summary: 'Run the controller against an existing cluster and Temporal server: core, watcher and every built-in provider, or only the parts named.',
    load: async () => (await import('./commands/run.ts')).runCommand,
  },
  {
    name: 'status',
    term: 'status [options] [target]',
    summary: 'Show ModelDeployments (or FlameClusters with --kind fc): phase, provider, ready replicas, current step, last error, age.',
    load: async () => (await import('./commands/status.ts')).statusCommand,
  },
  {
    name: 'history',
    term: 'history [options] <target>',
    summary: "Show a ModelDeployment's (or FlameCluster's) reconciliation history from Temporal: each step with its time, duration, outcome and error.",
    load: async () => (await import('./commands/history.ts')).historyCommand,
  },
  {
    name: 'retry',
    term: 'retry [options] <target>',
    summary: 'Retry the failed or waiting reconciliation step of a ModelDeployment or FlameCluster now, and report how the new attempt ended.',
    load: async () => (await import('./commands/retry.ts')).retryCommand,
  },
  {
    name: 'pause',
    term: 'pause [options] <target>',
    summary: 'Pause reconciliation of a ModelDeployment or FlameCluster (sets the annotation kubeairunway.ai/reconcile-paused: "true").',
    load: async () => (await import('./commands/pause.ts')).pauseCommand,
  },
  {
    name: 'resume',
    term: 'resume [options] <target>',
    summary: 'Resume reconciliation of a paused ModelDeployment or FlameCluster (removes the annotation kubeairunway.ai/reconcile-paused).',
    load: async () => (await import('./commands/pause.ts')).resumeCommand,
  },
  {
    name: 'controller',
    term: 'controller',
    summary: 'Install, upgrade or uninstall the kubeairunway controller on the current kube context (kubectl over deploy/install.yaml).',
    load: async () => (await import('./commands/install.ts')).controllerCommand,
  },
  {
    name: 'provider',
    term: 'provider',
    summary: 'Install or uninstall a built-in provider as its own Deployment (kubectl over deploy/providers/NAME).',
    load: async () => (await import('./commands/install.ts')).providerCommand,
  },
  {
    name: 'version',
    term: 'version',
    summary: 'Print the kubeairunway version.',
    load: async () => (await import('./commands/version.ts')).versionCommand,
  },
];

/**
 * The commands a call needs: the one it names (`kar status …`, `kar help status`), or, when it names
 * none it knows (`kar`, `kar --help`, a typo), none: the root then lists the index, and commander
 * suggests the closest name for a typo.
 */
export function commandsFor(argv: readonly string[], index: readonly IndexedCommand[] = COMMAND_INDEX): IndexedCommand[] {
  const words = argv.filter((a) => !a.startsWith('-'));
  const named = words[0] === 'help' ? words[1] : words[0];
  return index.filter((c) => c.name === named);
}

/** Runs a command line, loading only the module of the command it names. */
export async function runIndexedCli(argv: readonly string[], io: CliIO, index: readonly IndexedCommand[] = COMMAND_INDEX): Promise<ExitCode> {
  const needed = new Set(commandsFor(argv, index));
  const entries = await Promise.all(index.map(async (c): Promise<CommandRegistration | ListedCommand> => (needed.has(c) ? c.load() : c)));
  return runCli(argv, io, entries);
}
