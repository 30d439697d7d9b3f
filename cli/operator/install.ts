// `kubeairunway controller install|upgrade|uninstall` and `provider install|uninstall NAME` (seed 001
// §3.8, §6.3): kubectl over the manifests in deploy/, with the uninstall order the deploy README gives.

import { join } from 'node:path';
import { NODE_NAMESPACE, PROVIDER_CONFIG_PLURAL, SYSTEM_NAMESPACE } from '../../api/constants.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import { repoRoot } from '../repo-root.ts';
import type { KubeOptions } from './connection-options.ts';
import { kubectl } from './kubectl.ts';
import { BUILTIN_PROVIDER_NAMES } from './run-parts.ts';
import { DEFAULT_KIND, resolveKind } from './kinds.ts';
import { listObjects, openKube } from './session.ts';

const CORE_DEPLOYMENTS = ['kubeairunway-controller', 'kubeairunway-webhook'];
/** Created by the processes themselves, so not in the manifests (deploy/README.md). */
const WEBHOOK_CONFIGURATIONS = ['mutatingwebhookconfiguration/kubeairunway-mutating-webhook', 'validatingwebhookconfiguration/kubeairunway-validating-webhook'];

export interface InstallOptions extends KubeOptions {
  filename?: string;
  dryRun: 'none' | 'server' | 'client';
  /** Wait for the rollout (install and upgrade); `--no-wait` turns it off. */
  wait?: boolean;
  timeout?: string;
  force?: boolean;
}

export const installFile = () => join(repoRoot(), 'deploy', 'install.yaml');
const providerDir = (name: string) => join(repoRoot(), 'deploy', 'providers', name);
const dryRun = (opts: InstallOptions) => (opts.dryRun === 'none' ? [] : [`--dry-run=${opts.dryRun}`]);

export async function runControllerInstall(io: CliIO, opts: InstallOptions, verb: 'install' | 'upgrade'): Promise<ExitCode> {
  const file = opts.filename ?? installFile();
  io.stderr(`${verb === 'install' ? 'Installing' : 'Upgrading'} kubeairunway from ${file} ...\n`);
  await kubectl(io, ['apply', '-f', file, ...dryRun(opts)], opts);
  if (opts.wait && opts.dryRun === 'none') {
    for (const name of CORE_DEPLOYMENTS) await kubectl(io, ['rollout', 'status', `deployment/${name}`, '-n', SYSTEM_NAMESPACE, `--timeout=${opts.timeout ?? '5m'}`], opts);
  }
  io.stdout(
    opts.dryRun !== 'none'
      ? `Dry run (${opts.dryRun}): nothing was changed.\n`
      : `kubeairunway ${verb === 'install' ? 'installed' : 'upgraded'}. The controller needs a Temporal server: see the ConfigMap kubeairunway-temporal in ${SYSTEM_NAMESPACE}.\n`,
  );
  return 0;
}

export async function runControllerUninstall(io: CliIO, opts: InstallOptions): Promise<ExitCode> {
  // The CRDs go with the install, and every ModelDeployment with them; the controller must release
  // them (cleaning up their provider resources) while it still runs. Other kinds' children go with
  // them by garbage collection (ownerReferences), with no finalizer to wait for.
  const remaining = await listObjects(openKube(opts), resolveKind(DEFAULT_KIND), undefined).catch((err: unknown) => {
    if (err instanceof CliError && err.message.includes('CRD is not installed')) return [];
    throw err;
  });
  if (remaining.length > 0 && !opts.force) {
    const names = remaining.slice(0, 5).map((m) => `${m.metadata?.namespace}/${m.metadata?.name}`);
    throw new CliError(
      `${remaining.length} ModelDeployment${remaining.length === 1 ? '' : 's'} still exist (${names.join(', ')}${remaining.length > 5 ? ', …' : ''}): delete them first so the controller cleans up their provider resources, or pass --force.`,
    );
  }
  const file = opts.filename ?? installFile();
  io.stderr(`Uninstalling kubeairunway (${file}) ...\n`);
  await kubectl(io, ['delete', '-f', file, '--ignore-not-found', ...dryRun(opts)], opts);
  await kubectl(io, ['delete', ...WEBHOOK_CONFIGURATIONS, '--ignore-not-found', ...dryRun(opts)], opts);
  // The Kybernate node worker, when an overlay added components/kybernate-node: everything it has lives in
  // its own namespace, which install.yaml does not list.
  await kubectl(io, ['delete', 'namespace', NODE_NAMESPACE, '--ignore-not-found', ...dryRun(opts)], opts);
  const configs = BUILTIN_PROVIDER_NAMES.map((p) => `${PROVIDER_CONFIG_PLURAL}.kubeairunway.ai/${p}`);
  // The InferenceProviderConfig CRD may already be gone with the install file, taking these along.
  await kubectl(io, ['delete', ...configs, '--ignore-not-found', ...dryRun(opts)], opts).catch(() => undefined);
  io.stdout(opts.dryRun !== 'none' ? `Dry run (${opts.dryRun}): nothing was changed.\n` : 'kubeairunway uninstalled.\n');
  return 0;
}

export function checkProvider(name: string): string {
  if (!(BUILTIN_PROVIDER_NAMES as readonly string[]).includes(name)) {
    throw new CliError(`Unknown provider '${name}': the built-in providers are ${BUILTIN_PROVIDER_NAMES.join(', ')} (a third-party provider comes with its own manifests).`);
  }
  return name;
}

export async function runProviderInstall(io: CliIO, name: string, opts: InstallOptions, remove: boolean): Promise<ExitCode> {
  checkProvider(name);
  if (remove) {
    io.stderr(`Uninstalling the ${name} provider ...\n`);
    await kubectl(io, ['delete', '-k', providerDir(name), '--ignore-not-found', ...dryRun(opts)], opts);
    await kubectl(io, ['delete', `${PROVIDER_CONFIG_PLURAL}.kubeairunway.ai/${name}`, '--ignore-not-found', ...dryRun(opts)], opts);
  } else {
    io.stderr(`Installing the ${name} provider ...\n`);
    await kubectl(io, ['apply', '-k', providerDir(name), ...dryRun(opts)], opts);
    if (opts.wait && opts.dryRun === 'none') await kubectl(io, ['rollout', 'status', `deployment/${name}-provider`, '-n', SYSTEM_NAMESPACE, `--timeout=${opts.timeout ?? '5m'}`], opts);
  }
  const done = remove ? 'uninstalled' : 'installed';
  io.stdout(
    opts.dryRun !== 'none'
      ? `Dry run (${opts.dryRun}): nothing was changed.\n`
      : `The ${name} provider is ${done}.${remove ? '' : ' It registers its InferenceProviderConfig when it starts; the upstream operator is installed separately.'}\n`,
  );
  return 0;
}
