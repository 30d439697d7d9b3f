// kubectl and the `kubeairunway` CLI against a cluster-mode stack (not the shared test stack): what a user
// types, with the cluster's kubeconfig.
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { helmEnv } from '../../deploy/helm/helm-command.ts';
import { kubectlCommand } from '../../deploy/render.ts';

const ROOT = resolve(import.meta.dirname, '..', '..');

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

function runCommand(cmd: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string, timeoutMs = 300_000): Promise<CommandResult> {
  return new Promise((done, reject) => {
    const child = execFile(cmd, args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}\n${stderr}`));
      done({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

export interface ClusterCommands {
  kubectl(args: readonly string[], input?: string): Promise<CommandResult>;
  /** kubectl that must succeed; its stdout. */
  kubectlOk(args: readonly string[], input?: string): Promise<string>;
  /** `kubeairunway <args>` (the compiled CLI, as `kar` in the README). */
  kar(args: readonly string[], timeoutMs?: number): Promise<CommandResult>;
  /** `helm <args>` with the given binary (the tools cache's), its cache and config beside the kubeconfig. */
  helm(bin: string, args: readonly string[], timeoutMs?: number): Promise<CommandResult>;
}

export function clusterCommands(kubeconfig: string, temporalAddress: string): ClusterCommands {
  const env = { KUBECONFIG: kubeconfig, TEMPORAL_ADDRESS: temporalAddress };
  const kubectl = (args: readonly string[], input?: string) => runCommand(kubectlCommand(), args, env, input);
  return {
    kubectl,
    kubectlOk: async (args, input) => {
      const r = await kubectl(args, input);
      if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr || r.stdout}`);
      return r.stdout;
    },
    kar: (args, timeoutMs) => runCommand(process.execPath, [join(ROOT, 'bin', 'kubeairunway.js'), ...args], env, undefined, timeoutMs),
    helm: (bin, args, timeoutMs) => runCommand(bin, args, { ...env, ...helmEnv(join(dirname(kubeconfig), 'helm')) }, undefined, timeoutMs),
  };
}
