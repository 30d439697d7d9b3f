// kubectl against the test stack, for what the tests must prove with kubectl itself (server dry-run,
// `auth can-i` as a cross-check of access-review.ts) rather than through our own client.

import { execFile } from 'node:child_process';
import { kubectlCommand } from '../../deploy/render.ts';
import { stackInfo } from '../support/env.ts';
import { describeQuestion, type AccessQuestion } from './access-review.ts';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function kubectl(args: readonly string[], opts: { input?: string } = {}): Promise<KubectlResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(kubectlCommand(), [`--kubeconfig=${stackInfo().kubeconfigPath}`, ...args], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      resolve({ code: typeof err?.code === 'number' ? err.code : 0, stdout, stderr });
    });
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** kubectl that must succeed; its stdout. */
export async function kubectlOk(args: readonly string[], opts: { input?: string } = {}): Promise<string> {
  const r = await kubectl(args, opts);
  if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')} failed (${r.code}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/** `kubectl auth can-i` as `user` (e.g. system:serviceaccount:NS:NAME): exit 0 is yes, 1 is no. */
export async function kubectlCanI(user: string, q: AccessQuestion): Promise<boolean> {
  const target = q.name ? `${q.resource.split('/')[0]}/${q.name}` : q.resource.split('/')[0]!;
  const sub = q.resource.includes('/') ? [`--subresource=${q.resource.split('/')[1]}`] : [];
  const scope = q.namespace ? [`--namespace=${q.namespace}`] : ['--all-namespaces'];
  const r = await kubectl(['auth', 'can-i', q.verb, target, ...sub, ...scope, `--as=${user}`]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl auth can-i ${describeQuestion(q)} failed: ${r.stderr}`);
  return r.code === 0;
}
