// Links into the Temporal Web UI, the deployment-history browser. Workflow IDs hold slashes, which the
// UI expects percent-encoded in its routes.

export function workflowRunUrl(ui: string, namespace: string, workflowId: string, runId: string): string {
  return `${ui.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows/${encodeURIComponent(workflowId)}/${encodeURIComponent(runId)}/history`;
}

/** The UI's workflow list filtered by a visibility query, e.g. `MdNamespace = "team-a" AND MdPhase = "Failed"`. */
export function workflowListUrl(ui: string, namespace: string, query: string): string {
  return `${ui.replace(/\/+$/, '')}/namespaces/${encodeURIComponent(namespace)}/workflows?query=${encodeURIComponent(query)}`;
}
