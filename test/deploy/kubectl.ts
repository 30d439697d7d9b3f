// kubectl against the test stack, for what the tests must prove with kubectl itself (server dry-run,
// `auth can-i`) rather than through our own client.

import { execFile } from 'node:child_process';
import { kubectlCommand } from '../../deploy/render.ts';
import { stackInfo } from '../support/env.ts';

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

export interface AccessQuestion {
  verb: string;
  /** `resource`, `resource.group`, `resource/subresource` or `resource.group/subresource`, as kubectl takes it. */
  resource: string;
  name?: string;
  /** Omitted: asked cluster-wide (--all-namespaces for namespaced resources). */
  namespace?: string;
}

export function describeQuestion(q: AccessQuestion): string {
  return `${q.verb} ${q.resource}${q.name ? `/${q.name}` : ''} ${q.namespace ? `in ${q.namespace}` : 'cluster-wide'}`;
}

/** `kubectl auth can-i` as `user` (e.g. system:serviceaccount:NS:NAME): exit 0 is yes, 1 is no. */
export async function canI(user: string, q: AccessQuestion): Promise<boolean> {
  const target = q.name ? `${q.resource.split('/')[0]}/${q.name}` : q.resource.split('/')[0]!;
  const sub = q.resource.includes('/') ? [`--subresource=${q.resource.split('/')[1]}`] : [];
  const scope = q.namespace ? [`--namespace=${q.namespace}`] : ['--all-namespaces'];
  const r = await kubectl(['auth', 'can-i', q.verb, target!, ...sub, ...scope, `--as=${user}`]);
  if (r.code !== 0 && r.code !== 1) throw new Error(`kubectl auth can-i ${describeQuestion(q)} failed: ${r.stderr}`);
  return r.code === 0;
}

/** Answers many questions a few at a time (each is one kubectl process). */
export async function canIAll(user: string, questions: readonly AccessQuestion[], concurrency = 4): Promise<Map<AccessQuestion, boolean>> {
  const answers = new Map<AccessQuestion, boolean>();
  const queue = [...questions];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let q = queue.shift(); q; q = queue.shift()) answers.set(q, await canI(user, q));
    }),
  );
  return answers;
}
