import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runCommands } from '../testing/run.ts';
import { versionCommand } from './version.ts';

const packageVersion = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('kubeairunway version', () => {
  it("prints package.json's version and exits 0", async () => {
    const result = await runCommands(['version'], [versionCommand]);
    expect(result).toEqual({ code: 0, stdout: `kubeairunway ${packageVersion}\n`, stderr: '' });
  });

  it('takes no argument', async () => {
    const result = await runCommands(['version', 'extra'], [versionCommand]);
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe('');
  });
});
