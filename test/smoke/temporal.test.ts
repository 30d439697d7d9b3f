// Bottom layer: a workflow and an activity run on a worker against the dev server, its history can be
// read back, and the product's custom search attributes can be queried.
import { fileURLToPath } from 'node:url';
import { NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MdName, MdNamespace, MdPhase } from '../../workflows/engine/search-attributes.ts';
import * as activities from './fixtures/echo-activities.ts';
import { eventually, stackInfo, temporalClient, uniqueName } from '../support/env.ts';
import type { Client, Connection } from '@temporalio/client';

describe('Temporal dev server', () => {
  let client: Client;
  let connection: Connection;
  beforeAll(async () => {
    ({ client, connection } = await temporalClient());
  });
  afterAll(async () => connection.close());

  it('runs a workflow with an activity on a worker, keeps its history and indexes search attributes', async () => {
    const taskQueue = uniqueName('smoke');
    const workerConnection = await NativeConnection.connect({ address: stackInfo().temporalAddress });
    const worker = await Worker.create({
      connection: workerConnection,
      namespace: stackInfo().temporalNamespace,
      taskQueue,
      workflowsPath: fileURLToPath(new URL('./fixtures/echo-workflow.ts', import.meta.url)),
      activities,
    });
    const workflowId = uniqueName('echo');
    const marker = uniqueName('ns');
    try {
      const result = await worker.runUntil(
        client.workflow.execute('echoWorkflow', {
          taskQueue,
          workflowId,
          args: ['hello'],
          typedSearchAttributes: [
            { key: MdNamespace, value: marker },
            { key: MdName, value: 'echo' },
          ],
        }),
      );
      expect(result).toBe('HELLO!');
    } finally {
      await workerConnection.close();
    }

    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const types = (history.events ?? []).map((e) => e.eventType);
    expect(types.length).toBeGreaterThan(5);
    const completed = (history.events ?? []).find((e) => e.activityTaskCompletedEventAttributes);
    expect(completed).toBeDefined();

    const found = await eventually('the workflow to be visible by search attribute', async () => {
      const ids: string[] = [];
      for await (const wf of client.workflow.list({ query: `MdNamespace = "${marker}" AND MdPhase = "Running"` })) ids.push(wf.workflowId);
      return ids.length > 0 ? ids : undefined;
    });
    expect(found).toEqual([workflowId]);
    const description = await client.workflow.getHandle(workflowId).describe();
    expect(description.typedSearchAttributes.get(MdPhase)).toBe('Running');
  });
});
