// `status` must answer about as fast as kubectl: its modules (statically imported, from the command's
// registration on) must not load the Kubernetes or Temporal SDK clients, each of which alone costs
// more CPU to load than a whole `kubectl get`. They are loaded only on a fallback, dynamically.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function staticPackages(entry: string): Map<string, string> {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    // `import … from '…'` and `export … from '…'`, but not `import type` (erased when compiled).
    for (const m of source.matchAll(/^\s*(import|export)\s+(?!type\s)(?:[^'";]*?\s+from\s+)?'([^']+)'/gm)) {
      const spec = m[2]!;
      if (spec.startsWith('.')) walk(resolve(dirname(file), spec));
      else if (!spec.startsWith('node:') && !packages.has(spec)) packages.set(spec, file);
    }
  };
  walk(resolve(entry));
  return packages;
}

describe('status loads', () => {
  it.each(['cli/commands/status.ts', 'cli/operator/status.ts', 'cli/command-index.ts'])('no SDK client from %s', (entry) => {
    const packages = staticPackages(entry);
    for (const heavy of ['@kubernetes/client-node', '@temporalio/client', '@temporalio/worker', '@temporalio/workflow']) {
      expect(packages.get(heavy), `${heavy} is imported by ${packages.get(heavy)}`).toBeUndefined();
    }
  });
});
