import { chownSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { stackInfo } from './env.ts';

/**
 * The stack's kubeconfig as a container reads it (the image and compose tests): the CA inline (the file
 * it names is not in the container), owned by the image's user (uid 1000) and private to it, as a
 * mounted Secret would be. Written to `dir`; returns its path.
 */
export function containerKubeconfig(dir: string): string {
  const config = parse(readFileSync(stackInfo().kubeconfigPath, 'utf8')) as { clusters: { cluster: Record<string, string> }[] };
  for (const { cluster } of config.clusters) {
    const caFile = cluster['certificate-authority'];
    if (caFile) {
      cluster['certificate-authority-data'] = readFileSync(caFile).toString('base64');
      delete cluster['certificate-authority'];
    }
  }
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, stringify(config), { mode: 0o600 });
  chownSync(file, 1000, 1000);
  return file;
}
