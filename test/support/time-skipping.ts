// The workflow tests' Temporal: this vitest worker's time-skipping test server (test/setup/temporal-only.ts),
// reached as the SDK's time-skipping environment, which `createTimeSkipping()` would otherwise give only
// for a server it downloads and starts itself.
import { Client } from '@temporalio/client';
import { Connection, InternalConnectionOptionsSymbol, type InternalConnectionOptions } from '@temporalio/client/lib/connection.js';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection, Runtime } from '@temporalio/worker';
import { inject } from 'vitest';
import type { TemporalInfo } from './stack-info.ts';

/** This worker's server: each vitest worker has its own, so no other file's time skipping moves its clock. */
export function testServerInfo(): TemporalInfo {
  const servers = inject('temporalTestServers');
  if (!servers?.length) throw new Error('no Temporal test server: run this file in the workflows project');
  const poolId = Number(process.env.VITEST_POOL_ID ?? '1');
  return servers[(poolId - 1) % servers.length]!;
}

/**
 * The SDK's environment on a running test server: `client.workflow.result()` skips time while it waits,
 * `sleep()` skips the time it is given, and `currentTimeMs()` is the server's clock (the workflows').
 */
class RunningTestServerEnvironment extends TestWorkflowEnvironment {
  static async connectTo({ temporalAddress: address, temporalNamespace: namespace }: TemporalInfo): Promise<TestWorkflowEnvironment> {
    // What `createTimeSkipping()` sets on its own connections: they may call the TestService.
    const options: InternalConnectionOptions = { address, [InternalConnectionOptionsSymbol]: { supportsTestService: true } };
    // Workers never call it.
    const [connection, nativeConnection] = await Promise.all([Connection.connect(options), NativeConnection.connect({ address })]);
    return new RunningTestServerEnvironment(Runtime.instance(), { server: { type: 'existing' }, client: {}, plugins: [] }, true, 'existing', connection, nativeConnection, namespace, address);
  }
}

/**
 * A client on the environment whose `result()` leaves the clock alone (the environment's own lets it run
 * free while it waits): tests start workflows with it and skip time in steps (workflow-views.ts).
 */
export function steppingClient(env: TestWorkflowEnvironment): Client {
  return new Client({ connection: env.connection, namespace: env.namespace });
}

export function timeSkippingEnvironment(): Promise<TestWorkflowEnvironment> {
  return RunningTestServerEnvironment.connectTo(testServerInfo());
}

/**
 * The workflows' clock: the server's, ahead of the machine's by all the time skipped so far. Times a test
 * hands a workflow (a deletionTimestamp, a request's time) come from here; the offset is read before each
 * test, and again by `refresh()` after a test skipped time.
 */
export class ServerClock {
  private offsetMs = 0;
  constructor(private readonly env: () => TestWorkflowEnvironment) {}

  async refresh(): Promise<void> {
    this.offsetMs = (await this.env().currentTimeMs()) - Date.now();
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }
}
