// Reading RBAC rules the way the authorizer does, for checks on the manifests without a cluster.

import type { Manifest, PolicyRule } from './manifests.ts';

export function rulesOf(role: Manifest): PolicyRule[] {
  return (role.rules as PolicyRule[] | undefined) ?? [];
}

/** Whether `rules` allow `verb` on `group`/`resource` (with subresource, e.g. "modeldeployments/status"), optionally for one name. */
export function allows(rules: readonly PolicyRule[], verb: string, group: string, resource: string, name?: string): boolean {
  return rules.some(
    (r) =>
      (r.verbs.includes(verb) || r.verbs.includes('*')) &&
      (r.apiGroups ?? []).some((g) => g === group || g === '*') &&
      (r.resources ?? []).some((x) => x === resource || x === '*') &&
      (!r.resourceNames?.length || (name !== undefined && r.resourceNames.includes(name))),
  );
}

/** Every (group, resource) a set of rules mentions, as "resource.group" ("resource" for the core group). */
export function resourcesOf(rules: readonly PolicyRule[]): Set<string> {
  const out = new Set<string>();
  for (const r of rules) for (const g of r.apiGroups ?? []) for (const res of r.resources ?? []) out.add(g ? `${res}.${g}` : res);
  return out;
}
