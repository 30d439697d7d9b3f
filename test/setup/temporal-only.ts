import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startTemporalTestServer, type TemporalTestServer } from '../../devstack/temporal-test-server.ts';
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
  const servers = await startAll(stateDir, project.globalConfig.maxWorkers);
  const infos: TemporalInfo[] = servers.map((s) => ({ temporalAddress: s.address, temporalNamespace: s.namespace }));
  project.provide('temporalTestServers', infos);
  return async () => {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(stateDir, { recursive: true, force: true });
  };
}

/** Starts `count` servers at once; when one fails, stops those that started before failing with its error. */
async function startAll(stateDir: string, count: number): Promise<TemporalTestServer[]> {
  const starts = await Promise.allSettled(Array.from({ length: count }, (_, i) => startTemporalTestServer(stateDir, `temporal-test-server-${i + 1}`)));
  const servers = starts.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failures = starts.flatMap((s) => (s.status === 'rejected' ? [s.reason] : []));
  if (failures.length === 0) return servers;
  await Promise.all(servers.map((s) => s.stop()));
  rmSync(stateDir, { recursive: true, force: true });
  throw failures.length === 1 ? failures[0] : new AggregateError(failures, `${failures.length} of ${count} test servers failed to start`);
}
