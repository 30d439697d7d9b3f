import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** CRD files the local stack installs: the product's own and the minimal upstream provider kinds. */
export function stackCrdFiles(root: string): string[] {
  return ['deploy/crds', 'examples/upstream-crds']
    .map((dir) => join(root, dir))
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.yaml'))
        .sort()
        .map((f) => join(dir, f)),
    );
}
