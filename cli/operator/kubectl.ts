// Runs kubectl for the install commands, which are thin wrappers over the manifests in deploy/ (the same
// `kubectl apply` the deploy README documents). Its output streams through as it comes: it is the
// progress of a long operation.

import { spawn } from 'node:child_process';
import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { KubeOptions } from './connection-options.ts';

/** $KUBECTL, else kubectl on the PATH. */
export function kubectlPath(): string {
  return process.env.KUBECTL || 'kubectl';
}

/** The connection flags kubectl shares with the other commands. */
export function kubectlConnection(opts: KubeOptions): string[] {
  return [...(opts.kubeconfig ? ['--kubeconfig', opts.kubeconfig] : []), ...(opts.context ? ['--context', opts.context] : [])];
}

export async function kubectl(io: Pick<CliIO, 'stdout' | 'stderr'>, args: readonly string[], opts: KubeOptions): Promise<void> {
  const command = kubectlPath();
  const child = spawn(command, [...args, ...kubectlConnection(opts)], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.setEncoding('utf8').on('data', (s: string) => io.stdout(s));
  child.stderr.setEncoding('utf8').on('data', (s: string) => io.stderr(s));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new CliError(`${command} not found: install kubectl, or set KUBECTL to its path.`);
    throw new CliError(`Cannot run ${command}: ${err.message}.`);
  });
  if (code !== 0) throw new CliError(`kubectl ${args[0]} failed (exit code ${code}); its messages are above.`);
}
