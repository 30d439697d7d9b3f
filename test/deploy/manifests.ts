// The rendered install as objects, and the parts of it the tests pick out.

import { parseAllDocuments, stringify } from 'yaml';
import { join } from 'node:path';
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

export const RBAC_KINDS = new Set(['Namespace', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

export function find(manifests: readonly Manifest[], kind: string, name: string): Manifest {
  const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${manifests.map((m) => `${m.kind}/${m.metadata.name}`).join(', ')}`);
  return found;
}

export function toYaml(manifests: readonly Manifest[]): string {
  return manifests.map((m) => stringify(m)).join('---\n');
}
