// The suite also fails on a type error or a lint error, above all the rule that keeps workflows/
// deterministic (no Node built-ins, clients or activity code in workflow code).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name: string) => fileURLToPath(new URL(`../node_modules/.bin/${name}`, import.meta.url));

function run(cmd: string, args: string[]): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(cmd, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string };
    return { code: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('static checks', () => {
  it('type-checks (TypeScript strict)', () => {
    const { code, output } = run(bin('tsc'), ['--noEmit', '-p', '.']);
    expect(output.trim()).toBe('');
    expect(code).toBe(0);
  }, 180_000);

  it('lints clean, including the workflow determinism rules', () => {
    const { code, output } = run(bin('eslint'), ['.', '--max-warnings=0']);
    expect(output.trim()).toBe('');
    expect(code).toBe(0);
  }, 180_000);
});
