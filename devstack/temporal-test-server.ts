// The Java SDK's time-skipping test server on a port of its own: the workflow tests' Temporal. It serves
// the frontend the SDK's clients and workers use plus the TestService (time skipping) on that one port.
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { javaArgs, javaCommand, mavenToolJars } from '../tools/maven-tool.ts';
import { TEMPORAL_TEST_SERVER } from '../tools/versions.ts';
import { freePort } from './ports.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';
import { addSearchAttributes } from './temporal.ts';

export interface TemporalTestServer {
  process: ManagedProcess;
  /** gRPC frontend and TestService, host:port. */
  address: string;
  namespace: string;
}

/** Starts the test server from the tools cache's jars, with the product's search attributes registered. */
export async function startTemporalTestServer(stateDir: string, name = 'temporal-test-server'): Promise<TemporalTestServer> {
  const port = await freePort();
  const jars = mavenToolJars(TEMPORAL_TEST_SERVER);
  const proc = startProcess(name, javaCommand(), javaArgs(TEMPORAL_TEST_SERVER, jars, [String(port)]), join(stateDir, `${name}.log`));
  const address = `127.0.0.1:${port}`;
  // The test server has only the 'default' namespace.
  const namespace = 'default';
  await waitUntil(proc, 'serving', 60_000, async () => {
    const connection = await Connection.connect({ address, connectTimeout: 2_000 });
    try {
      await connection.workflowService.getSystemInfo({});
      await addSearchAttributes(connection, namespace);
      return true;
    } finally {
      await connection.close();
    }
  });
  return { process: proc, address, namespace };
}
