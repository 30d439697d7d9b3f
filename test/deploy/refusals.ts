// Where a missing permission would show: a Kubernetes 403 is classified once (kube/errors.ts) and fails
// the activity with type KubeForbidden, recorded in the workflow's history (an activity task failure, or
// the marker of a local activity, as the FlameCluster workflow runs its steps); the watcher and the
// registration log theirs. A lifecycle that completes after retries would hide a refusal; these do not.

import { temporalClient } from '../support/env.ts';

/** Log lines that say the API server refused something. */
export function refusedLines(log: readonly string[]): string[] {
  return log.filter((line) => /forbidden|\b403\b/i.test(line));
}

/** Activity failures of type KubeForbidden in the histories of every workflow for objects in `namespace` (ModelDeployments, FlameClusters). */
export async function forbiddenActivities(namespace: string): Promise<string[]> {
  const { client, connection } = await temporalClient();
  try {
    const found: string[] = [];
    for await (const wf of client.workflow.list({ query: `MdNamespace = "${namespace}" OR K8sNamespace = "${namespace}"` })) {
      const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
      for (const event of history.events ?? []) {
        const failure = event.activityTaskFailedEventAttributes?.failure ?? event.markerRecordedEventAttributes?.failure;
        const type = failure?.applicationFailureInfo?.type ?? failure?.cause?.applicationFailureInfo?.type;
        if (type === 'KubeForbidden') found.push(`${wf.workflowId}: ${failure?.message}`);
      }
    }
    return found;
  } finally {
    await connection.close();
  }
}
