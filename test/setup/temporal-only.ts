import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { stopProcess } from '../../devstack/process.ts';
import { startTemporalTestServer } from '../../devstack/temporal-test-server.ts';
import { fetchTestServer } from '../../tools/build.ts';
import type { TemporalInfo } from '../support/stack-info.ts';

/**
 * The workflow tests' own servers: they run workflows on stub activities, so they need Temporal and
 * nothing of Kubernetes. Each is the Java SDK's time-skipping test server, one per vitest worker: time
 * skipping moves a server's clock for every workflow on it, so two files running at once must not share one.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Fetched here when missing (seconds), so `vitest run --project workflows` works without `npm run tools` first.
  await fetchTestServer();
  const parent = join(tmpdir(), 'kubeairunway-test-stacks');
  mkdirSync(parent, { recursive: true });
  const stateDir = mkdtempSync(join(parent, 'temporal-'));
  const workers = project.globalConfig.maxWorkers;
  const servers = await Promise.all(Array.from({ length: workers }, (_, i) => startTemporalTestServer(stateDir, `temporal-test-server-${i + 1}`)));
  const infos: TemporalInfo[] = servers.map((s) => ({ temporalAddress: s.address, temporalNamespace: s.namespace }));
  project.provide('temporalTestServers', infos);
  return async () => {
    await Promise.all(servers.map((s) => stopProcess(s.process)));
    rmSync(stateDir, { recursive: true, force: true });
  };
}
