// scripts/compile.mjs, which bin/kubeairunway.js runs before every call in a checkout: it compiles what
// changed and only that, the output runs as ES modules with `.js` imports, and a file with syntax errors
// is reported without stopping the others.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations (it runs before anything is installed or compiled)
import { compileChanged } from '../scripts/compile.mjs';

const root = mkdtempSync(join(tmpdir(), 'compile-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const write = (rel: string, text: string) => {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), text);
};

describe('compileChanged', () => {
  it('compiles changed sources only, into runnable ES modules, and reports a broken file without stopping', async () => {
    write('package.json', JSON.stringify({ type: 'module' }));
    write('tsconfig.build.json', JSON.stringify({ compilerOptions: { outDir: 'dist' }, include: ['src'] }));
    write('src/main.ts', "import { greet } from './lib/greet.ts';\nconst who: string = 'kar';\nconsole.log(greet(who));\n");
    write('src/lib/greet.ts', 'export const greet = (who: string): string => `hello ${who}`;\n');
    write('src/lib/greet.test.ts', 'this is not compiled at all(');
    const compile = (warnings: string[] = []) => compileChanged({ root, warn: (t: string) => warnings.push(t) }) as Promise<number>;

    expect(await compile()).toBe(2);
    expect(execFileSync(process.execPath, [join(root, 'dist/src/main.js')], { encoding: 'utf8' })).toBe('hello kar\n');
    expect(await compile()).toBe(0);

    write('src/lib/greet.ts', 'export const greet = (who: string): string => `hi ${who}`;\n');
    // Same size as before is not enough to hide a change: the mtime differs.
    utimesSync(join(root, 'src/lib/greet.ts'), new Date(), new Date(Date.now() + 5_000));
    expect(await compile()).toBe(1);
    expect(execFileSync(process.execPath, [join(root, 'dist/src/main.js')], { encoding: 'utf8' })).toBe('hi kar\n');

    write('src/broken.ts', 'export const x = (;\n');
    const warnings: string[] = [];
    expect(await compile(warnings)).toBe(1);
    expect(warnings.join('\n')).toMatch(/cannot compile 1 source file\(s\):\nsrc\/broken\.ts:1: /);
    // Not recorded: tried again at the next call, and still said.
    expect(await compile(warnings)).toBe(1);
    expect(execFileSync(process.execPath, [join(root, 'dist/src/main.js')], { encoding: 'utf8' })).toBe('hi kar\n');
  });
});
