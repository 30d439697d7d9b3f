// The helm client the chart's tests run: the one `npm run tools -- --cluster` builds into the tools cache
// (tools/versions.ts pins it), with Helm's own cache and config kept out of the user's home.

import { execFile } from 'node:child_process';
import { resolveTool } from '../../tools/resolve.ts';
import { toolSpec } from '../../tools/versions.ts';

/** The helm binary, or undefined when it is not built. */
export function helmBinary(): string | undefined {
  return resolveTool('helm')?.path;
}

/** Why the helm tests cannot run, for a skip message. */
export function helmMissing(): string {
  const spec = toolSpec('helm');
  return `helm ${spec.version} not built: run \`npm run tools -- --cluster\` (or set ${spec.envVar})`;
}

/** Helm's cache, config and data folders under `home`, so a run leaves nothing in ~/.cache or ~/.config. */
export function helmEnv(home: string): NodeJS.ProcessEnv {
  return { HELM_CACHE_HOME: `${home}/cache`, HELM_CONFIG_HOME: `${home}/config`, HELM_DATA_HOME: `${home}/data` };
}

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs helm; resolves with its exit code and output whatever the code. */
export function runHelm(bin: string, args: readonly string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<HelmResult> {
  return new Promise((done, reject) => {
    execFile(bin, args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(new Error(`helm ${args.join(' ')}: ${err.message}\n${stderr}`));
      done({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr });
    });
  });
}
