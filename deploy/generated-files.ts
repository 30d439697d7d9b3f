// The parts of deploy/ that come from the registered modules (kinds/index.ts), as `npm run manifests`
// writes them and the staleness test compares them: each module's ClusterRole (its rules and reasons,
// kinds/<module>/role.ts) with, for a role bound on its own, its binding and kustomization; the users'
// roles gathered from kinds/<module>/user-roles.yaml; the module folders deploy/core lists; and the CRD
// files deploy/ lists (kustomize cannot glob); and, outside deploy/, the workflow bundle's entry
// (workflows/index.ts, kinds/workflow-entry.ts). A new kind writes none of these by hand. Besides, the
// controller image's tag in the base kustomization and docker-compose.yml, from package.json's version
// (release-version.ts).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { KIND_MODULES } from '../kinds/index.ts';
import type { KindModule } from '../kinds/kind-module.ts';
import { renderClusterRole } from '../kinds/rbac.ts';
import { WORKFLOW_ENTRY, workflowEntry } from '../kinds/workflow-entry.ts';
import { DEPLOY_DIR } from './render.ts';
import { composeTagged, kustomizationTagged, packageJson, taggedKustomizations } from './release-version.ts';

export interface GeneratedFile {
  /** Absolute path (under deploy/, but for the workflow bundle's entry). */
  path: string;
  text: string;
}

const REPO = join(DEPLOY_DIR, '..');
const GENERATED = (source: string) => `# Generated from ${source} by \`npm run manifests\`: edit it there.`;

function roleFiles(m: KindModule): GeneratedFile[] {
  const dir = join(DEPLOY_DIR, 'core', m.role.folder);
  const files = [{ path: join(dir, 'cluster-role.yaml'), text: renderClusterRole(m.role, `kinds/${m.name}/role.ts`) }];
  if (!m.role.binding) return files;
  const subject = m.role.name.replace(/^kubeairunway-/, '');
  files.push({
    path: join(dir, 'cluster-role-binding.yaml'),
    text: [
      ...m.role.binding.map((line) => `# ${line}`),
      GENERATED(`kinds/${m.name}/role.ts`),
      'apiVersion: rbac.authorization.k8s.io/v1',
      'kind: ClusterRoleBinding',
      'metadata:',
      `  name: kubeairunway-controller-${subject}`,
      'roleRef:',
      '  apiGroup: rbac.authorization.k8s.io',
      '  kind: ClusterRole',
      `  name: ${m.role.name}`,
      'subjects:',
      '  - kind: ServiceAccount',
      '    name: kubeairunway-controller',
      '    namespace: kubeairunway-system',
      '',
    ].join('\n'),
  });
  files.push({
    path: join(dir, 'kustomization.yaml'),
    text: [
      `# ${m.kinds.map((k) => k.watched.kind).join(', ')}, reconciled by the core controller process: the ${m.role.name} role and its`,
      "# binding to the controller's ServiceAccount in every namespace. To serve only some namespaces, replace",
      '# the binding with a RoleBinding per namespace and start the controller with --namespaces (deploy/README.md).',
      GENERATED(`kinds/${m.name}/role.ts`),
      'apiVersion: kustomize.config.k8s.io/v1beta1',
      'kind: Kustomization',
      'resources:',
      '  - cluster-role.yaml',
      '  - cluster-role-binding.yaml',
      '',
    ].join('\n'),
  });
  return files;
}

const USERS_HEADER = [
  '# Roles for the people who use kubeairunway (seed 000 "User Permissions"), an editor and a viewer per',
  '# kind (not for kubeairunway\'s own processes). The aggregate-to labels add these rules to Kubernetes\'',
  '# built-in admin, edit and view roles, so namespace editors and viewers get them without a new binding.',
  '# Generated from kinds/<module>/user-roles.yaml by `npm run manifests`: edit them there.',
];

/** A module's user-roles.yaml without its own leading comment (everything up to its first `---`). */
function userRoles(m: KindModule): string | undefined {
  const file = join(REPO, 'kinds', m.name, 'user-roles.yaml');
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf('\n---\n');
  return (start < 0 ? text : text.slice(start + '\n---\n'.length)).trimEnd();
}

/** Replaces the `  - <entry>` lines of a kustomization that `owned` claims by `entries`, at the first one's place. */
function relist(text: string, owned: (entry: string) => boolean, entries: readonly string[], after?: string): string {
  const lines = text.split('\n');
  const item = /^ {2}- (.+)$/;
  const kept = lines.filter((l) => !(item.test(l) && owned(l.match(item)![1]!)));
  const first = lines.findIndex((l) => item.test(l) && owned(l.match(item)![1]!));
  // Every line before the first owned entry is kept, so its index is the same in `kept`.
  const at = after !== undefined ? kept.indexOf(`  - ${after}`) + 1 : first < 0 ? kept.length : first;
  kept.splice(at, 0, ...entries.map((e) => `  - ${e}`));
  return kept.join('\n');
}

/** Every file generated from the modules, in path order. */
export function generatedFiles(modules: readonly KindModule[] = KIND_MODULES): GeneratedFile[] {
  const files = modules.flatMap(roleFiles);
  files.push({
    path: join(DEPLOY_DIR, 'core', 'users', 'cluster-roles.yaml'),
    text: `${USERS_HEADER.join('\n')}\n${modules.flatMap((m) => userRoles(m) ?? []).join('\n---\n')}\n`,
  });
  const core = join(DEPLOY_DIR, 'core', 'kustomization.yaml');
  const folders = modules.map((m) => m.role.folder);
  const generatedFolder = (entry: string) => folders.includes(entry) || readIfExists(join(DEPLOY_DIR, 'core', entry, 'cluster-role.yaml')).includes('# Generated from kinds/');
  files.push({ path: core, text: relist(readFileSync(core, 'utf8'), generatedFolder, folders, 'namespace.yaml') });
  const install = join(DEPLOY_DIR, 'kustomization.yaml');
  const crds = readdirSync(join(DEPLOY_DIR, 'crds')).filter((f) => f.endsWith('.yaml')).sort().map((f) => `crds/${f}`);
  files.push({ path: install, text: relist(readFileSync(install, 'utf8'), (entry) => entry.startsWith('crds/'), crds) });
  files.push({ path: join(REPO, WORKFLOW_ENTRY), text: workflowEntry(modules) });
  return releaseTagged(files).sort((a, b) => a.path.localeCompare(b.path));
}

/** `files` and the other files naming the controller image, each with package.json's version as its tag. */
function releaseTagged(files: GeneratedFile[]): GeneratedFile[] {
  const { version } = packageJson();
  const generated = new Map(files.map((f) => [f.path, f.text]));
  const kustomizations = taggedKustomizations().map((f) => join(DEPLOY_DIR, f));
  const tagged = kustomizations.map((path) => ({ path, text: kustomizationTagged(generated.get(path) ?? readFileSync(path, 'utf8'), version) }));
  const compose = join(REPO, 'docker-compose.yml');
  tagged.push({ path: compose, text: composeTagged(readFileSync(compose, 'utf8'), version) });
  return [...files.filter((f) => !kustomizations.includes(f.path)), ...tagged];
}

function readIfExists(path: string): string {
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** The path relative to the repository, for messages. */
export function shown(file: GeneratedFile): string {
  return relative(REPO, file.path);
}
