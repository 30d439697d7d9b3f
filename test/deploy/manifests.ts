// The rendered install as objects, and the parts of it the tests pick out.

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { DEPLOY_DIR, kustomize } from '../../deploy/render.ts';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  verbs: string[];
  nonResourceURLs?: string[];
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Manifest | null)
    .filter((m): m is Manifest => m !== null);
}

/** The objects a kustomization under deploy/ produces ('' is deploy/ itself). */
export function rendered(dir = ''): Manifest[] {
  return parseManifests(kustomize(join(DEPLOY_DIR, dir)));
}

/** What a user's overlay produces: `resources` and `components` given relative to deploy/ ('' is deploy/ itself). */
export function overlay(resources: readonly string[], components: readonly string[]): Manifest[] {
  const dir = mkdtempSync(join(tmpdir(), 'kubeairunway-overlay-'));
  try {
    const rel = (p: string) => relative(dir, join(DEPLOY_DIR, p)) || '.';
    writeFileSync(join(dir, 'kustomization.yaml'), JSON.stringify({ resources: resources.map(rel), components: components.map(rel) }));
    return parseManifests(kustomize(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The components under deploy/components/, by folder name. */
export function componentNames(): string[] {
  return readdirSync(join(DEPLOY_DIR, 'components'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** The node worker's component: opt-in, privileged, in a namespace of its own. */
export const NODE_COMPONENT = 'components/kybernate-node';
export { NODE_NAMESPACE } from '../../api/constants.ts';

export const RBAC_KINDS = new Set(['Namespace', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

export function find(manifests: readonly Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
  return found;
}

export function toYaml(manifests: readonly Manifest[]): string {
  return manifests.map((m) => stringify(m)).join('---\n');
}
