// The product's root folder (the one holding its package.json), found the same way whether this code
// runs as TypeScript sources (worker/) or compiled (dist/worker/, one level deeper): by walking up to the
// package.json named kubeairunway, instead of counting `..` from this file.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PRODUCT_NAME = 'kubeairunway';

function isProductRoot(dir: string): boolean {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return false;
  return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name === PRODUCT_NAME;
}

/** The nearest folder at or above `from` whose package.json is the product's. */
export function findProductRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (isProductRoot(dir)) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json named ${PRODUCT_NAME} at or above ${from}`);
  }
}

let root: string | undefined;

/** The root of the product this code belongs to (its checkout, or /app in the image). */
export function productRoot(): string {
  return (root ??= findProductRoot(dirname(fileURLToPath(import.meta.url))));
}
