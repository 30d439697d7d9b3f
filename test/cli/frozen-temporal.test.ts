// Every command ends once it has answered, even when Temporal has stopped answering: a server frozen by
// SIGSTOP accepts connections (the kernel completes the handshake) and never replies, not even to a
// goodbye. These run the real command (bin/kubeairunway.js, a process of its own: whether it ends is
// the point) against a Temporal dev server of this file's own, frozen, beside the shared cluster.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopProcess } from '../../devstack/process.ts';
import { startTemporal, type TemporalServer } from '../../devstack/temporal.ts';
import { resolveTool } from '../../tools/resolve.ts';
import { createDeployment, example } from '../support/deployments.ts';
import { stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';

/** Far beyond any answer's own bounds (10 s per Temporal call): a process alive then has hung. */
const HUNG_AFTER_MS = 90_000;

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when the process had to be killed: it never ended by itself. */
  hung: boolean;
}

function kar(args: string[]): Promise<Ended> {
  const child = spawn(process.execPath, ['bin/kubeairunway.js', ...args], { cwd: new URL('../..', import.meta.url).pathname });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => {
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, HUNG_AFTER_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, hung });
    });
  });
}

describe('kar with Temporal frozen (SIGSTOP)', () => {
  let kube: TestKube;
  let temporal: TemporalServer;
  let stateDir: string;
  const name = uniqueName('frozen');
  const connection = () => ['--kubeconfig', stackInfo().kubeconfigPath, '--temporal-address', temporal.address, '--temporal-namespace', temporal.namespace];

  beforeAll(async () => {
    const bin = resolveTool('temporal');
    if (!bin) throw new Error('the Temporal CLI is not built yet: run `npm run tools`');
    stateDir = mkdtempSync(join(tmpdir(), 'kar-frozen-temporal-'));
    temporal = await startTemporal(bin.path, stateDir);
    kube = await testKube('frozen');
    // No controller: the object is all `status` needs from the cluster; its workflow is Temporal's half.
    await createDeployment(example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => (m.metadata.name = name)));
    process.kill(temporal.process.pid, 'SIGSTOP');
  });
  afterAll(async () => {
    if (temporal) {
      process.kill(temporal.process.pid, 'SIGCONT');
      await stopProcess(temporal.process);
    }
    await kube?.cleanup();
    if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  });

  it('status answers with the cluster side, says Temporal did not answer, and ends', async () => {
    const result = await kar(['status', `${kube.namespace}/${name}`, '-o', 'json', ...connection()]);
    expect(result.hung, `still running ${HUNG_AFTER_MS / 1000} s after the start; stdout: ${result.stdout}`).toBe(false);
    expect(result.code, result.stderr).toBe(0);
    const status = JSON.parse(result.stdout) as { name: string; workflow: { status: string; note: string } };
    expect(status.name).toBe(name);
    expect(status.workflow.status).toBe('UNKNOWN');
    expect(status.workflow.note).toMatch(/no answer within/);
  });

  it('history (the SDK client) says Temporal did not answer, and ends', async () => {
    const result = await kar(['history', `${kube.namespace}/${name}`, ...connection()]);
    expect(result.hung, `still running ${HUNG_AFTER_MS / 1000} s after the start; stderr: ${result.stderr}`).toBe(false);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*Temporal/);
  });
});
