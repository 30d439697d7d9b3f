import { describe, expect, it } from 'vitest';
import { runCommands } from '../testing/run.ts';
import { conformanceCommand } from './conformance.ts';

const run = (argv: string[]) => runCommands(argv, [conformanceCommand]);

describe('kubeairunway conformance: arguments', () => {
  it('--help names the options', async () => {
    const result = await run(['conformance', '--help']);
    expect(result.code).toBe(0);
    for (const flag of ['--kubeconfig', '--context', '--namespace', '--target', '--filename', '--no-examples', '--no-golden', '--output']) expect(result.stdout).toContain(flag);
  });

  it('an unknown target is refused before any cluster is asked', async () => {
    const result = await run(['conformance', '--target', 'vllm']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("argument 'vllm' is invalid");
  });

  it('a kubeconfig that cannot be read is one sentence naming it', async () => {
    const result = await run(['conformance', '--kubeconfig', '/nonexistent/kubeconfig', '--no-examples']);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/^error: Cannot load the kubeconfig \/nonexistent\/kubeconfig: .+\.\n$/);
  });
});
