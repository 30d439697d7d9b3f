// `kubeairunway controller install|upgrade|uninstall` and `provider install|uninstall NAME` (seed 001
// §3.8, §6.3): kubectl over the manifests in deploy/, with the uninstall order the deploy README gives.

import { join } from 'node:path';
import { ASYA_FINALIZER } from '../../api/asya/constants.ts';
import { FINALIZER, NODE_NAMESPACE, PROVIDER_CONFIG_PLURAL, SYSTEM_NAMESPACE } from '../../api/constants.ts';
import { ARTIFACTS_FINALIZER } from '../../api/kybernate/constants.ts';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import { repoRoot } from '../repo-root.ts';
import type { KubeOptions } from './connection-options.ts';
import { kubectl } from './kubectl.ts';
import { BUILTIN_PROVIDER_NAMES } from './run-parts.ts';
import { DEFAULT_KIND, operatorKinds } from './kinds.ts';
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

/** The finalizers only the controller removes (what a deletion must clean up first: provider resources, queues, checkpoint images). */
const CONTROLLER_FINALIZERS: readonly string[] = [FINALIZER, ASYA_FINALIZER, ARTIFACTS_FINALIZER];

/**
 * `Kind namespace/name` of what the uninstall would take along unreleased: every ModelDeployment (the
 * models it serves), and every object of another kind that waits on the controller to be deleted.
 */
async function heldByController(opts: InstallOptions): Promise<string[]> {
  const session = openKube(opts);
  const held: string[] = [];
  for (const kind of operatorKinds()) {
    const objects = await listObjects(session, kind, undefined).catch((err: unknown) => {
      if (err instanceof CliError && err.message.includes('CRD is not installed')) return [];
      throw err;
    });
    for (const o of objects) {
      if (kind.kind === DEFAULT_KIND || o.metadata?.finalizers?.some((f) => CONTROLLER_FINALIZERS.includes(f))) held.push(`${kind.kind} ${o.metadata?.namespace}/${o.metadata?.name}`);
    }
  }
  return held;
}

/** Why the uninstall refuses, naming the first few of `remaining` (`Kind namespace/name`, ModelDeployments first). */
export function uninstallRefusal(remaining: readonly string[]): string {
  const allDeployments = remaining.every((r) => r.startsWith(`${DEFAULT_KIND} `));
  const what = allDeployments ? `${DEFAULT_KIND}${remaining.length === 1 ? '' : 's'}` : `object${remaining.length === 1 ? '' : 's'} of ours`;
  const names = remaining.slice(0, 5).map((r) => (allDeployments ? r.slice(DEFAULT_KIND.length + 1) : r));
  const cleanup = allDeployments ? 'their provider resources' : 'what they made (provider resources, queues, checkpoint images)';
  return `${remaining.length} ${what} still exist (${names.join(', ')}${remaining.length > 5 ? ', …' : ''}): delete them first so the controller cleans up ${cleanup}, or pass --force.`;
}

export async function runControllerUninstall(io: CliIO, opts: InstallOptions): Promise<ExitCode> {
  // The CRDs go with the install, and every object of ours with them. Those with a finalizer of ours (a
  // ModelDeployment's provider resources, an AsyncActor's queues, a checkpoint's image on its node) must be
  // released by the controller while it still runs: once it is gone, their CRDs' deletion waits forever.
  // Other kinds' children go with them by garbage collection (ownerReferences).
  const remaining = await heldByController(opts);
  if (remaining.length > 0 && !opts.force) throw new CliError(uninstallRefusal(remaining));
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
