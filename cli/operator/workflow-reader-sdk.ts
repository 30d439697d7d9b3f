// The WorkflowReader over the Temporal SDK's client, for the commands that hold one anyway (retry, pause).

import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { viewQuery } from '../../workflows/engine/definitions.ts';
import type { WorkflowReader } from '../../present/workflow-state.ts';

export function sdkWorkflowReader(client: Client): WorkflowReader {
  return {
    async describe(workflowId) {
      try {
        const d = await client.workflow.getHandle(workflowId).describe();
        return { status: d.status.name, memo: d.memo ?? {}, searchAttributes: (d.searchAttributes ?? {}) as Record<string, unknown> };
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return undefined;
        throw err;
      }
    },
    queryView: (workflowId, timeoutMs) => client.withDeadline(Date.now() + timeoutMs, () => client.workflow.getHandle(workflowId).query(viewQuery)),
  };
}
