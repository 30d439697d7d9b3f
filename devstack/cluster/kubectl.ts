import { execFile } from 'node:child_process';

/**
 * kubectl against a cluster-mode stack, bounded, its stderr in the error. `input` goes to its stdin
 * (`apply -f -` of a `v1 List`). The same KUBECTL override as deploy/'s kubectlCommand().
 */
export function kubectl(kubeconfig: string, args: string[], timeoutMs: number, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.env.KUBECTL ?? 'kubectl', [`--kubeconfig=${kubeconfig}`, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`kubectl ${args.join(' ')}: ${stderr.trim() || err.message}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}
