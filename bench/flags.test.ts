import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BENCH_FLAGS, benchRequest, benchUsage } from './flags.ts';

describe('npm run bench flags', () => {
  it('--help (and -h) asks for the flags, wherever it stands', () => {
    expect(benchRequest(['--help'])).toEqual({ help: true });
    expect(benchRequest(['--versus-peer', '/tmp/peer', '-h'])).toEqual({ help: true });
  });

  it('the documented invocations are runs', () => {
    for (const args of [[], ['--pure-only'], ['--deployments', '1,20'], ['--versus-peer', '--quick'], ['--versus-peer', '/p', '--bursts', '100,300'], ['--cli', '--runs', '5']]) {
      expect(benchRequest(args), args.join(' ')).toEqual({ help: false });
    }
  });

  it('refuses an unknown flag or a missing value by name', () => {
    expect(benchRequest(['--quik'])).toEqual({ error: expect.stringContaining("unknown flag '--quik'") });
    expect(benchRequest(['--runs'])).toEqual({ error: expect.stringContaining('--runs needs a value (N)') });
    expect(benchRequest(['--singles', '--quick'])).toEqual({ error: expect.stringContaining('--singles needs a value') });
  });

  it('the usage names every flag', () => {
    for (const flag of BENCH_FLAGS) expect(benchUsage()).toContain(flag.name);
  });

  it('npm run bench -- --help prints the usage and exits 0 without benchmarking', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--help'], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${benchUsage()}\n`);
  });
});
