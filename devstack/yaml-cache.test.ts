import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readYamlDocuments } from './yaml-cache.ts';

const dir = mkdtempSync(join(tmpdir(), 'yaml-cache-test-'));
const cache = join(dir, 'cache');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.KUBEAIRUNWAY_TOOLS_CACHE;
  process.env.KUBEAIRUNWAY_TOOLS_CACHE = cache;
});
afterEach(() => {
  if (saved === undefined) delete process.env.KUBEAIRUNWAY_TOOLS_CACHE;
  else process.env.KUBEAIRUNWAY_TOOLS_CACHE = saved;
});

describe('readYamlDocuments', () => {
  it('parses once, then answers from the cache keyed by content; a changed file is parsed again', () => {
    const file = join(dir, 'a.yaml');
    writeFileSync(file, 'kind: A\nx: [1, 2]\n---\n---\nkind: B\n');
    expect(readYamlDocuments(file)).toEqual([{ kind: 'A', x: [1, 2] }, null, { kind: 'B' }]);
    expect(readdirSync(join(cache, 'parsed-yaml'))).toHaveLength(1);
    // Same content: the cached JSON, equal to the parse.
    expect(readYamlDocuments(file)).toEqual([{ kind: 'A', x: [1, 2] }, null, { kind: 'B' }]);
    writeFileSync(file, 'kind: C\n');
    expect(readYamlDocuments(file)).toEqual([{ kind: 'C' }]);
    expect(readdirSync(join(cache, 'parsed-yaml'))).toHaveLength(2);
  });

  it('names the file when its YAML is broken, and caches nothing for it', () => {
    const file = join(dir, 'broken.yaml');
    writeFileSync(file, 'a: [1\n');
    expect(() => readYamlDocuments(file)).toThrow(/broken\.yaml: not valid YAML/);
    expect(() => readYamlDocuments(file)).toThrow(/broken\.yaml: not valid YAML/);
  });
});
