import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, run } from './testing/run.ts';

describe('kubeairunway program', () => {
  it('--help lists the commands and exits 0', async () => {
    const result = await run(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['validate', 'render', 'explain']) expect(result.stdout).toContain(command);
  });

  it('an unknown command exits 1 with one sentence', async () => {
    const result = await run(['bogus']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("error: unknown command 'bogus'\n");
  });

  it('help for a command', async () => {
    const result = await run(['render', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--provider-config <path...>');
  });
});

// One real process per entry point, to prove the wiring; everything else runs in-process above.
describe('entry points', () => {
  const node = (args: string[], input?: string) =>
    spawnSync(process.execPath, args, { cwd: REPO_ROOT, input, encoding: 'utf8', timeout: 60_000 });

  it('bin/kubeairunway.js validates an example (exit 0)', () => {
    const result = node([join('bin', 'kubeairunway.js'), 'validate', '-f', 'examples/gpu-vllm-dynamo.yaml']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('examples/gpu-vllm-dynamo.yaml: ModelDeployment default/llama-8b is valid\n');
    expect(result.status).toBe(0);
  });

  it('cli/main.ts reads stdin and exits 1 on an invalid spec', () => {
    const result = node(['--import', 'tsx', join('cli', 'main.ts'), 'validate', '-f', '-'], 'apiVersion: kubeairunway.ai/v1alpha1\nkind: ModelDeployment\nmetadata: {name: x}\nspec: {}\n');
    expect(result.stdout).toContain('error   spec.engine.type: engine.type is required');
    expect(result.status).toBe(1);
  });
});
