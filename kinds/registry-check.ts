// What makes a kind half-registered: something of it exists in a shared place (a CRD in deploy/crds, a
// workflow under workflows/ or in the bundle, a WatchedKind, an activity set in contract/) that no module
// registers, a registration naming a workflow file that does not declare its workflow, or a
// module that leaves out a piece every kind needs. Pure: the test (registry.test.ts) gathers the facts
// from the repository and from the modules' own factories, and fails on any problem found here.

import { crdFileName } from '../api/crd/crd-file-name.ts';
import type { KindModule } from './kind-module.ts';
import { flagName } from './run-flags.ts';

export interface RepositoryFacts {
  /** File names under deploy/crds/. */
  crdFiles: readonly string[];
  /** Every CRD declared in api/ (`customResourceDefinition(…)` exported), as its deploy/crds file name, with the declaring file. */
  declaredCrds: readonly { file: string; in: string }[];
  /** Export names of workflows/index.ts. */
  workflowExports: readonly string[];
  /** Every workflow function declared under workflows/ (`export async function <name>Workflow`): its file, by name. */
  workflowFunctions: Readonly<Record<string, string>>;
  /** Every WatchedKind exported from watcher/kinds/, by kind. */
  watchedKinds: readonly string[];
  /** Activity interfaces of contract/ with their members, except those served by other workers. */
  contractActivities: Readonly<Record<string, readonly string[]>>;
  /** Activity types each module's factory serves, by module name. */
  served: Readonly<Record<string, readonly string[]>>;
  /** Activities that run on other workers (providers, the node worker): outcomes may name them. */
  servedElsewhere: readonly string[];
  /** Modules with a kinds/<name>/user-roles.yaml. */
  withUserRoles: readonly string[];
  /** Whether a repository file exists (a part's entry). */
  exists(path: string): boolean;
}

/** Every way the modules and the repository disagree, one sentence each; empty when every kind is whole. */
export function registryProblems(modules: readonly KindModule[], facts: RepositoryFacts): string[] {
  const problems: string[] = [];
  const kinds = modules.flatMap((m) => m.kinds.map((k) => ({ module: m, kind: k })));
  const registeredCrds = modules.flatMap((m) => [...m.kinds.map((k) => k.crd), ...(m.extraCrds ?? [])]).map(crdFileName);
  const servedBy = new Map<string, string>();
  for (const [module, types] of Object.entries(facts.served)) {
    for (const type of types) {
      const other = servedBy.get(type);
      if (other) problems.push(`activity ${type} is served by both ${other} and ${module}: one would replace the other on the core worker`);
      servedBy.set(type, module);
    }
  }

  for (const file of facts.crdFiles) if (!registeredCrds.includes(file)) problems.push(`deploy/crds/${file} belongs to no registered module (kinds/index.ts)`);
  for (const file of registeredCrds) if (!facts.crdFiles.includes(file)) problems.push(`${file} is registered but not in deploy/crds/ (npm run crds)`);
  for (const crd of facts.declaredCrds) {
    if (!registeredCrds.includes(crd.file)) problems.push(`the CRD of ${crd.file} (${crd.in}) is registered by no module: npm run crds would not write it`);
  }
  for (const name of facts.workflowExports) {
    if (!kinds.some(({ kind }) => kind.watched.workflowType === name)) problems.push(`workflow ${name} (workflows/index.ts) is registered by no kind`);
  }
  for (const [name, file] of Object.entries(facts.workflowFunctions)) {
    if (!kinds.some(({ kind }) => kind.watched.workflowType === name)) problems.push(`workflow ${name} (${file}) is registered by no kind: the bundle's entry leaves it out`);
  }
  for (const name of facts.watchedKinds) {
    if (!kinds.some(({ kind }) => kind.watched.kind === name)) problems.push(`WatchedKind ${name} (watcher/kinds/) is registered by no module`);
  }
  for (const [contract, members] of Object.entries(facts.contractActivities)) {
    const missing = members.filter((m) => !servedBy.has(m));
    if (missing.length > 0) problems.push(`${contract} (contract/) is not served on the core worker: ${missing.join(', ')}`);
  }

  for (const { module, kind } of kinds) {
    const name = kind.watched.kind;
    const workflow = kind.watched.workflowType;
    if (!facts.workflowExports.includes(workflow)) problems.push(`${name}: workflow ${workflow} is not exported from workflows/index.ts`);
    const declaredIn = facts.workflowFunctions[workflow];
    if (declaredIn !== kind.workflowModule) {
      problems.push(`${name}: its workflowModule ${kind.workflowModule} does not declare ${workflow}${declaredIn ? ` (${declaredIn} does)` : ''}`);
    }
    const { group, plural } = kind.watched.collection;
    if (kind.crd.spec.names.kind !== name || kind.crd.spec.group !== group || kind.crd.spec.names.plural !== plural) {
      problems.push(`${name}: its CRD is ${kind.crd.spec.names.kind} (${kind.crd.spec.names.plural}.${kind.crd.spec.group}), not ${plural}.${group}`);
    }
    if (!module.offline) problems.push(`${name}: module ${module.name} has no offline handlers (validate, render)`);
    if (!(facts.served[module.name]?.length ?? 0)) problems.push(`${name}: module ${module.name} serves no activities`);
    if (!facts.withUserRoles.includes(module.name)) problems.push(`${name}: module ${module.name} has no user-roles.yaml (editor and viewer roles for its users)`);
    const may = (verb: string, resource: string, apiGroup: string) =>
      module.role.rules.some((r) => r.apiGroups.includes(apiGroup) && r.resources.includes(resource) && r.verbs.includes(verb));
    for (const verb of ['list', 'watch']) {
      if (!may(verb, plural, group)) problems.push(`${name}: role ${module.role.name} does not ${verb} ${plural}.${group} (its watch)`);
      for (const child of kind.watched.children ?? []) {
        if (!may(verb, child.plural, child.group)) problems.push(`${name}: role ${module.role.name} does not ${verb} ${child.plural} (its child watch)`);
      }
    }
    if (!may('patch', `${plural}/status`, group)) problems.push(`${name}: role ${module.role.name} does not patch ${plural}/status (its status apply)`);
  }

  for (const module of modules) {
    for (const rule of module.role.rules) {
      const what = `${module.role.name}: rule on ${rule.resources.join(', ')}`;
      if (rule.why.join('').trim() === '') problems.push(`${what} gives no reason`);
      if ([...rule.verbs, ...rule.resources, ...rule.apiGroups].includes('*')) problems.push(`${what} uses a wildcard`);
    }
    for (const part of module.parts ?? []) {
      if (!facts.exists(part.module)) problems.push(`${module.name}: part ${part.name} names ${part.module}, which does not exist`);
      if (part.namedBy !== undefined && !(module.flags ?? []).some((f) => flagName(f) === part.namedBy)) {
        problems.push(`${module.name}: part ${part.name} is named by ${part.namedBy}, which is none of the module's flags`);
      }
    }
    for (const type of Object.keys(module.stepOutcomes ?? {})) {
      if (!servedBy.has(type) && !facts.servedElsewhere.includes(type)) problems.push(`${module.name}: step outcome for ${type}, an activity no worker serves`);
    }
  }
  const flagOwners = new Map<string, string>();
  for (const module of modules) {
    for (const flag of module.flags ?? []) {
      const spelled = flag.flag.split(' ')[0]!;
      const owner = flagOwners.get(spelled);
      if (owner) problems.push(`flag ${spelled} is declared by both ${owner} and ${module.name}: \`kubeairunway run\` cannot offer it twice`);
      flagOwners.set(spelled, module.name);
    }
  }
  return problems;
}
