// The Java SDK's time-skipping test server on a port of its own: the workflow tests' Temporal. It serves
// the frontend the SDK's clients and workers use plus the TestService (time skipping) on that one port.
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import { javaArgs, javaCommand, mavenToolJars } from '../tools/maven-tool.ts';
import { TEMPORAL_TEST_SERVER } from '../tools/versions.ts';
import { guardBesideStack } from './leftovers.ts';
import { freePort } from './ports.ts';
import { killChildrenOnExit, startProcess, stopProcess, waitUntil, type ManagedProcess } from './process.ts';
import { addSearchAttributes } from './temporal.ts';

export interface TemporalTestServer {
  process: ManagedProcess;
  /** gRPC frontend and TestService, host:port. */
  address: string;
  namespace: string;
  /** Stops the JVM and releases its orphan guard. */
  stop(): Promise<void>;
}

/**
 * Starts the test server from the tools cache's jars, with the product's search attributes registered.
 * Should this process exit without stopping it, the exit hook kills it; should it be killed, the orphan
 * guard does, which only stops processes whose command line names `stateDir`: the JVM gets it as a property.
 */
export async function startTemporalTestServer(stateDir: string, name = 'temporal-test-server'): Promise<TemporalTestServer> {
  const port = await freePort();
  const jars = mavenToolJars(TEMPORAL_TEST_SERVER);
  const args = javaArgs(TEMPORAL_TEST_SERVER, jars, [String(port)], [`-Dkubeairunway.stateDir=${stateDir}`]);
  killChildrenOnExit();
  const proc = startProcess(name, javaCommand(), args, join(stateDir, `${name}.log`));
  const guard = guardBesideStack(stateDir, `${name}-${proc.pid}`, [proc.pid]);
  const stop = async () => {
    await stopProcess(proc);
    guard.release();
  };
  const address = `127.0.0.1:${port}`;
  // The test server has only the 'default' namespace.
  const namespace = 'default';
  try {
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
  } catch (err) {
    await stop();
    throw err;
  }
  return { process: proc, address, namespace, stop };
}
