import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenInputs } from './golden-inputs.ts';
import { builtinProviders, findProvider } from './index.ts';
import { goldenText } from './testing/fixtures.ts';

// The list the conformance command sends to a cluster must be the inputs of the golden files, all of
// them: each golden file is the rendering of one listed input at one of the provider's versions, and
// each listed input renders to a golden file. A golden added without its input here fails this test.

function goldenFiles(provider: string): { path: string; text: string }[] {
  const dir = join(import.meta.dirname, provider, '__golden__');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ path: `${provider}/__golden__/${f}`, text: readFileSync(join(dir, f), 'utf8') }));
}

/** Each input's rendering at every version its provider renders. */
function renderings(provider: string): { input: string; apiVersion: string; text: string }[] {
  const definition = findProvider(provider)!;
  return goldenInputs()
    .filter((g) => g.provider === provider)
    .flatMap((g) =>
      definition.resource.versions.map((v) => {
        const apiVersion = `${definition.resource.group}/${v}`;
        return { input: g.name, apiVersion, text: goldenText(definition.render(g.md, { apiVersion })) };
      }),
    );
}

describe('golden inputs', () => {
  it('name only built-in providers, each input once', () => {
    const inputs = goldenInputs();
    expect(inputs.every((g) => findProvider(g.provider))).toBe(true);
    const keys = inputs.map((g) => `${g.provider}/${g.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  for (const provider of builtinProviders.map((p) => p.name)) {
    it(`${provider}: every golden file is the rendering of a listed input, and every input has its golden file`, () => {
      const files = goldenFiles(provider);
      const rendered = renderings(provider);
      expect(files.length).toBeGreaterThan(0);
      const unmatchedFiles = files.filter((f) => !rendered.some((r) => r.text === f.text)).map((f) => f.path);
      expect(unmatchedFiles).toEqual([]);
      const inputsWithoutFile = [...new Set(rendered.map((r) => r.input))].filter((input) => !rendered.some((r) => r.input === input && files.some((f) => f.text === r.text)));
      expect(inputsWithoutFile).toEqual([]);
    });
  }
});
