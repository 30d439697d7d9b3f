import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findProductRoot, productRoot } from './product-root.ts';

describe('productRoot', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'product-root-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('is this checkout when run from the sources', () => {
    expect(productRoot()).toBe(fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, ''));
  });

  it('is found from the sources and from dist/ alike, past package.json files of other packages', () => {
    writeFileSync(join(tmp, 'package.json'), JSON.stringify({ name: 'kubeairunway' }));
    mkdirSync(join(tmp, 'dist', 'worker'), { recursive: true });
    mkdirSync(join(tmp, 'worker'));
    // A nested package.json of another name (as node_modules or a workspace would have) is not the product's.
    writeFileSync(join(tmp, 'dist', 'package.json'), JSON.stringify({ name: 'something-else' }));
    expect(findProductRoot(join(tmp, 'worker'))).toBe(tmp);
    expect(findProductRoot(join(tmp, 'dist', 'worker'))).toBe(tmp);
  });

  it('fails with the folder it started from when there is no product above it', () => {
    expect(() => findProductRoot('/')).toThrow('no package.json named kubeairunway at or above /');
  });
});
