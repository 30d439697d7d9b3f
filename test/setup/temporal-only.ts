import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopProcess } from '../../devstack/process.ts';
import { startTemporal } from '../../devstack/temporal.ts';
import { resolveTool } from '../../tools/resolve.ts';
import type { TemporalInfo } from '../support/stack-info.ts';

/**
 * The workflow tests' own server: they run workflows on stub activities, so they need a Temporal server
 * and nothing of Kubernetes. Starting only it (a few seconds) lets `vitest run --project workflows` run
 * without etcd or kube-apiserver.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const temporal = resolveTool('temporal');
  if (!temporal) throw new Error('the Temporal CLI is not built yet: run `npm run tools` (or `npm test`, which runs setup first)');
  const parent = join(tmpdir(), 'kubeairunway-test-stacks');
  mkdirSync(parent, { recursive: true });
  const stateDir = mkdtempSync(join(parent, 'temporal-'));
  const server = await startTemporal(temporal.path, stateDir);
  const info: TemporalInfo = { temporalAddress: server.address, temporalNamespace: server.namespace };
  project.provide('temporal', info);
  return async () => {
    await stopProcess(server.process);
    rmSync(stateDir, { recursive: true, force: true });
  };
}
