// A kind's ClusterRole as data, and its YAML. `npm run manifests` writes each registered module's role
// to deploy/core/<folder>/cluster-role.yaml (deploy/generate.ts); a unit test fails while a committed
// file differs from what this renders, so the reasons in the YAML are the ones in the code.

export interface RuleSpec {
  /** Why each verb is needed, and what is left out on purpose: the rule's comment lines, in order. */
  why: readonly string[];
  apiGroups: readonly string[];
  resources: readonly string[];
  verbs: readonly string[];
}

export interface ClusterRoleSpec {
  /** Its folder under deploy/core/, beside the binding and kustomization written by hand. */
  folder: string;
  /** metadata.name, bound to the controller's ServiceAccount by the folder's cluster-role-binding.yaml. */
  name: string;
  /** The file's leading comment: what the role is for and what it leaves to other roles. */
  about: readonly string[];
  rules: readonly RuleSpec[];
  /**
   * Bound to the controller's ServiceAccount in every namespace by a ClusterRoleBinding of its own, whose
   * comment this is (why everywhere, and how to serve fewer namespaces): deploy/core/<folder> then holds
   * only generated files. Absent: the folder's binding is written by hand (the controller's).
   */
  binding?: readonly string[];
}

const list = (values: readonly string[]) => `[${values.map((v) => JSON.stringify(v)).join(', ')}]`;
const comment = (indent: string, line: string) => (line ? `${indent}# ${line}` : `${indent}#`);

/** The role's YAML: its comment, then every rule with its reasons, in the order declared. */
export function renderClusterRole(role: ClusterRoleSpec, source: string): string {
  return [
    ...role.about.map((line) => comment('', line)),
    `# Generated from ${source} by \`npm run manifests\`: edit the rules there.`,
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata:',
    `  name: ${role.name}`,
    'rules:',
    ...role.rules.flatMap((rule) => [
      ...rule.why.map((line) => comment('  ', line)),
      `  - apiGroups: ${list(rule.apiGroups)}`,
      `    resources: ${list(rule.resources)}`,
      `    verbs: ${list(rule.verbs)}`,
    ]),
    '',
  ].join('\n');
}
