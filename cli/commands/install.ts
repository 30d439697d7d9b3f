// `kubeairunway controller install|upgrade|uninstall` and `kubeairunway provider install|uninstall NAME`:
// kubectl over deploy/install.yaml and deploy/providers/NAME (seed 001 §3.8 and §6.3).

import { Option, type Command } from 'commander';
import { actionWithArgs } from '../operator/command.ts';
import { withKubeOptions } from '../operator/connection-options.ts';
import type { InstallOptions } from '../operator/install.ts';
import { action, type CommandRegistration } from '../program.ts';

function common(command: Command, waits: boolean): Command {
  command.addOption(new Option('--dry-run <mode>', 'kubectl dry run: server (the API server checks everything), client, or none').choices(['none', 'server', 'client']).default('none'));
  if (waits) {
    command.option('--no-wait', 'return once the manifests are applied, without waiting for the rollout').option('--timeout <duration>', 'how long to wait for the rollout', '5m');
  }
  return withKubeOptions(command);
}

export const controllerCommand: CommandRegistration = (program: Command, { io }) => {
  const controller = program.command('controller').description('Install, upgrade or uninstall the kubeairunway controller on the current kube context (kubectl over deploy/install.yaml).');
  for (const verb of ['install', 'upgrade'] as const) {
    common(
      controller
        .command(verb)
        .description(verb === 'install' ? 'Install the CRDs, the controller with the built-in providers, and the webhook.' : 'Apply the manifests of this version; Deployments roll without downtime.')
        .option('-f, --filename <file>', 'the manifests to apply (default: deploy/install.yaml of this checkout)'),
      true,
    ).action(
      action(async (options: InstallOptions) => {
        const { runControllerInstall } = await import('../operator/install.ts');
        return runControllerInstall(io, options, verb);
      }),
    );
  }
  common(
    controller
      .command('uninstall')
      .description('Remove kubeairunway, once no ModelDeployment is left (the controller must clean them up first).')
      .option('-f, --filename <file>', 'the manifests to delete (default: deploy/install.yaml of this checkout)')
      .option('--force', 'uninstall even though ModelDeployments remain (their provider resources may be orphaned)'),
    false,
  ).action(
    action(async (options: InstallOptions) => {
      const { runControllerUninstall } = await import('../operator/install.ts');
      return runControllerUninstall(io, options);
    }),
  );
};

export const providerCommand: CommandRegistration = (program: Command, { io }) => {
  const provider = program.command('provider').description('Install or uninstall a built-in provider as its own Deployment (kubectl over deploy/providers/NAME).');
  for (const remove of [false, true]) {
    common(
      provider
        .command(remove ? 'uninstall' : 'install')
        .description(remove ? 'Remove a built-in provider installed on its own.' : 'Install a built-in provider (kaito, dynamo, kuberay, deployment) as its own Deployment.')
        .argument('<name>', 'kaito, dynamo, kuberay or deployment'),
      !remove,
    ).action(
      actionWithArgs(async (args, options: InstallOptions) => {
        const { runProviderInstall } = await import('../operator/install.ts');
        return runProviderInstall(io, args[0]!, options, remove);
      }),
    );
  }
};
