import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export interface KubeconfigInput {
  server: string;
  token: string;
  caFile: string;
  contextName?: string;
}

/** Writes a kubeconfig for the admin user; kubectl and @kubernetes/client-node both read it. */
export function writeKubeconfig(path: string, input: KubeconfigInput): void {
  const name = input.contextName ?? 'kubeairunway-dev';
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: input.server, 'certificate-authority': input.caFile } }],
    users: [{ name: 'admin', user: { token: input.token } }],
    contexts: [{ name, context: { cluster: name, user: 'admin', namespace: 'default' } }],
    'current-context': name,
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
}
