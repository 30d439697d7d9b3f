// The registered modules against the repository: no kind half-registered (registry-check.ts), and what
// is generated from them (the ClusterRoles under deploy/core, the CRD files, the workflow bundle's entry)
// is what is committed.

import { KubeConfig } from '@kubernetes/client-node';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { crdFileName } from '../api/crd/crd-file-name.ts';
import { crdFiles } from '../deploy/crd-files.ts';
import { generatedFiles, shown } from '../deploy/generated-files.ts';
import type { WatchedKind } from '../watcher/watched-kind.ts';
import { KIND_MODULES } from './index.ts';
import type { KindModule } from './kind-module.ts';
import { registryProblems, type RepositoryFacts } from './registry-check.ts';
import { WORKFLOW_ENTRY, workflowEntry } from './workflow-entry.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** Activity interfaces whose members other workers serve: each provider's worker, and the node worker beside containerd. */
const SERVED_ELSEWHERE = ['ProviderActivities', 'NodeActivities'];

/** `export interface XActivities { member(…): …; }` in contract/, member names by interface. */
function contractActivities(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const file of readdirSync(join(ROOT, 'contract')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    for (const m of read(`contract/${file}`).matchAll(/^export interface (\w+Activities)\b[^{]*\{([\s\S]*?)^\}/gm)) {
      out[m[1]!] = [...m[2]!.matchAll(/^ {2}(\w+)\??\s*[(:<]/gm)].map((x) => x[1]!);
    }
  }
  return out;
}

/** A KubeConfig that names a server nobody listens on: the factories only keep it, nothing connects. */
function offlineKubeConfig(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'none', server: 'https://127.0.0.1:9', skipTLSVerify: true }],
    users: [{ name: 'none' }],
    contexts: [{ name: 'none', cluster: 'none', user: 'none' }],
    currentContext: 'none',
  });
  return kc;
}

/** `export async function <name>Workflow(` in every file under workflows/ but tests: the file, by name. */
function workflowFunctions(dir = 'workflows'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, workflowFunctions(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      for (const m of read(path).matchAll(/^export (?:async )?function (\w+Workflow)\(/gm)) out[m[1]!] = path;
    }
  }
  return out;
}

/** Every CRD object exported from a file under api/ that declares one (`= customResourceDefinition(`). */
async function declaredCrds(dir = 'api'): Promise<{ file: string; in: string }[]> {
  const out: { file: string; in: string }[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...(await declaredCrds(path)));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && read(path).includes('= customResourceDefinition(')) {
      const exports = (await import(pathToFileURL(join(ROOT, path)).href)) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        const crd = value as { kind?: unknown; spec?: { group: string; names: { plural: string } } };
        if (crd && typeof crd === 'object' && crd.kind === 'CustomResourceDefinition' && crd.spec) out.push({ file: crdFileName({ spec: crd.spec }), in: path });
      }
    }
  }
  return out;
}

async function repositoryFacts(modules: readonly KindModule[]): Promise<RepositoryFacts> {
  const contracts = contractActivities();
  const watchedKinds: string[] = [];
  for (const file of readdirSync(join(ROOT, 'watcher/kinds')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const exports = (await import(pathToFileURL(join(ROOT, 'watcher/kinds', file)).href)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      const kind = value as Partial<WatchedKind>;
      if (kind && typeof kind === 'object' && typeof kind.workflowType === 'string' && typeof kind.kind === 'string') watchedKinds.push(kind.kind);
    }
  }
  const kc = offlineKubeConfig();
  const served: Record<string, string[]> = {};
  for (const m of modules) served[m.name] = Object.keys(await m.activities({ kc, inProcessProviders: [] }));
  return {
    crdFiles: readdirSync(join(ROOT, 'deploy/crds')).filter((f) => f.endsWith('.yaml')),
    declaredCrds: await declaredCrds(),
    workflowExports: [...read('workflows/index.ts').matchAll(/^export\s*\{([^}]*)\}\s*from/gm)].flatMap((m) => m[1]!.split(',').map((n) => n.trim().split(/\s+as\s+/).at(-1)!)).filter(Boolean),
    workflowFunctions: workflowFunctions(),
    watchedKinds,
    contractActivities: Object.fromEntries(Object.entries(contracts).filter(([name]) => !SERVED_ELSEWHERE.includes(name))),
    served,
    servedElsewhere: SERVED_ELSEWHERE.flatMap((name) => contracts[name] ?? []),
    withUserRoles: modules.filter((m) => existsSync(join(ROOT, 'kinds', m.name, 'user-roles.yaml'))).map((m) => m.name),
    exists: (path) => existsSync(join(ROOT, path)),
  };
}

describe('kind registry (kinds/index.ts)', () => {
  it('registers every kind whole: CRDs, workflows, watches, activity sets, roles and handlers all agree', async () => {
    const facts = await repositoryFacts(KIND_MODULES);
    // The facts are really read: an empty repository would agree with anything.
    expect(facts.crdFiles.length).toBeGreaterThanOrEqual(7);
    expect(facts.declaredCrds.map((c) => c.in)).toContain('api/flame/crd.ts');
    expect(facts.declaredCrds).toHaveLength(facts.crdFiles.length);
    expect(facts.workflowExports).toContain('flameClusterWorkflow');
    expect(facts.watchedKinds).toContain('KybernateWorkload');
    expect(facts.contractActivities.FlameActivities).toEqual(['applyFlameCluster', 'reportFlameStatus']);
    expect(registryProblems(KIND_MODULES, facts)).toEqual([]);
    // Loading every module's activities (and the SDKs they import) is slow on a busy machine.
  }, 60_000);

  it('finds a half-registered kind: left out of the list, or registered without its pieces', async () => {
    const facts = await repositoryFacts(KIND_MODULES);
    const flame = KIND_MODULES.find((m) => m.name === 'flame')!;
    // FlameCluster's files all present, its module not listed.
    const withoutFlame = KIND_MODULES.filter((m) => m !== flame);
    const left = registryProblems(withoutFlame, { ...facts, served: Object.fromEntries(Object.entries(facts.served).filter(([name]) => name !== 'flame')) });
    expect(left).toEqual(
      expect.arrayContaining([
        'deploy/crds/flame.xflops.io_flameclusters.yaml belongs to no registered module (kinds/index.ts)',
        'the CRD of flame.xflops.io_flameclusters.yaml (api/flame/crd.ts) is registered by no module: npm run crds would not write it',
        'workflow flameClusterWorkflow (workflows/index.ts) is registered by no kind',
        "workflow flameClusterWorkflow (workflows/flame/flame-cluster.ts) is registered by no kind: the bundle's entry leaves it out",
        'WatchedKind FlameCluster (watcher/kinds/) is registered by no module',
        'FlameActivities (contract/) is not served on the core worker: applyFlameCluster, reportFlameStatus',
      ]),
    );
    // Listed, but with no offline handlers, a role that cannot watch its pods, and a rule without a reason.
    const half: KindModule = {
      ...flame,
      kinds: flame.kinds.map((k) => ({ ...k, workflowModule: 'workflows/flame/index.ts' })),
      offline: undefined,
      role: { ...flame.role, rules: flame.role.rules.map((r) => (r.resources.includes('pods') ? { ...r, why: [], verbs: ['create'] } : r)) },
    };
    const problems = registryProblems([...withoutFlame, half], facts);
    expect(problems).toEqual(
      expect.arrayContaining([
        'FlameCluster: module flame has no offline handlers (validate, render)',
        'FlameCluster: its workflowModule workflows/flame/index.ts does not declare flameClusterWorkflow (workflows/flame/flame-cluster.ts does)',
        'FlameCluster: role kubeairunway-flame does not list pods (its child watch)',
        'kubeairunway-flame: rule on pods gives no reason',
      ]),
    );
  }, 60_000);

  it("writes a kind's workflow into the bundle's entry and its CRD into deploy/crds only from its registration", () => {
    const flame = KIND_MODULES.find((m) => m.name === 'flame')!;
    const withoutFlame = KIND_MODULES.filter((m) => m !== flame);
    const committed = read(WORKFLOW_ENTRY);
    expect(committed).toBe(workflowEntry(KIND_MODULES));
    expect(committed).toContain("export { flameClusterWorkflow } from './flame/flame-cluster.ts';\n");
    // Left out of the list, the kind leaves the entry (the staleness test below then fails) and deploy/crds.
    expect(workflowEntry(withoutFlame)).not.toContain('flameClusterWorkflow');
    expect(crdFiles(KIND_MODULES).map((f) => f.file)).toContain('flame.xflops.io_flameclusters.yaml');
    expect(crdFiles(withoutFlame).map((f) => f.file)).not.toContain('flame.xflops.io_flameclusters.yaml');
    expect(crdFiles(KIND_MODULES).map((f) => f.file).sort()).toEqual(readdirSync(join(ROOT, 'deploy/crds')).filter((f) => f.endsWith('.yaml')).sort());
  });

  it("composes every kind's workflow settings into the ones the watcher and the worker pass (workflows/settings.ts)", async () => {
    // A kind with settings of its own keeps them in workflows/<kind>/settings.ts (<NAME>_DEFAULTS); the one
    // shared edit besides its module's entry is adding them to DEFAULT_SETTINGS. Forgotten, its workflows
    // would start without them.
    const { DEFAULT_SETTINGS } = await import('../workflows/settings.ts');
    const files = readdirSync(join(ROOT, 'workflows'), { withFileTypes: true }).filter((e) => e.isDirectory() && existsSync(join(ROOT, 'workflows', e.name, 'settings.ts')));
    expect(files.map((e) => e.name)).toEqual(expect.arrayContaining(['asya', 'engine', 'model-deployment']));
    const missing: string[] = [];
    for (const dir of files) {
      const exports = (await import(pathToFileURL(join(ROOT, 'workflows', dir.name, 'settings.ts')).href)) as Record<string, unknown>;
      for (const [name, defaults] of Object.entries(exports).filter(([name]) => name.endsWith('_DEFAULTS'))) {
        for (const key of Object.keys(defaults as object)) if (!(key in DEFAULT_SETTINGS)) missing.push(`workflows/${dir.name}/settings.ts ${name}.${key}`);
      }
    }
    expect(missing, 'add them to DEFAULT_SETTINGS and ReconcileSettings in workflows/settings.ts').toEqual([]);
  });

  it("finds a part named by a switch its module does not declare, or a flag of run two modules declare", async () => {
    const facts = await repositoryFacts(KIND_MODULES);
    const kybernate = KIND_MODULES.find((m) => m.name === 'kybernate')!;
    const renamed: KindModule = { ...kybernate, parts: kybernate.parts!.map((p) => (p.namedBy ? { ...p, namedBy: 'nodes' } : p)) };
    expect(registryProblems([...KIND_MODULES.filter((m) => m !== kybernate), renamed], facts)).toContain("kybernate: part node worker is named by nodes, which is none of the module's flags");
    const copy: KindModule = { ...kybernate, name: 'copy', kinds: [], parts: [], flags: kybernate.flags!.slice(0, 1) };
    expect(registryProblems([...KIND_MODULES, copy], facts)).toContain('flag --node is declared by both kybernate and copy: `kubeairunway run` cannot offer it twice');
  }, 60_000);

  it('reads every activity type at most once across modules', async () => {
    const facts = await repositoryFacts(KIND_MODULES);
    const twice = { ...facts, served: { ...facts.served, again: ['applyFlameCluster'] } };
    expect(registryProblems(KIND_MODULES, twice)).toContain('activity applyFlameCluster is served by both flame and again: one would replace the other on the core worker');
  }, 60_000);
});

describe('deploy/ from the modules (npm run manifests)', () => {
  it.each(generatedFiles().map((f) => [shown(f), f] as const))('%s is what the modules render', (_name, file) => {
    expect(readFileSync(file.path, 'utf8'), `${shown(file)} is stale: run npm run manifests`).toBe(file.text);
  });

  it('every role folder under deploy/core comes from a module, besides the webhook', () => {
    const generated = new Set(KIND_MODULES.map((m) => m.role.folder));
    const folders = readdirSync(join(ROOT, 'deploy/core'), { withFileTypes: true }).filter((e) => e.isDirectory() && readdirSync(join(ROOT, 'deploy/core', e.name)).includes('cluster-role.yaml'));
    expect(folders.map((e) => e.name).filter((name) => !generated.has(name))).toEqual(['webhook']);
  });

  it('a new module gets its role folder listed in deploy/core, and its users\' roles gathered', () => {
    const flame = KIND_MODULES.find((m) => m.name === 'flame')!;
    const extra = { ...flame, name: 'widget', role: { ...flame.role, name: 'kubeairunway-widget', folder: 'widget' } };
    const files = generatedFiles([...KIND_MODULES, extra]);
    const core = files.find((f) => shown(f) === 'deploy/core/kustomization.yaml')!;
    expect(core.text).toContain('  - kybernate\n  - widget\n  - webhook\n');
    expect(files.map(shown)).toEqual(expect.arrayContaining(['deploy/core/widget/cluster-role.yaml', 'deploy/core/widget/cluster-role-binding.yaml', 'deploy/core/widget/kustomization.yaml']));
    expect(files.find((f) => shown(f) === 'deploy/core/widget/cluster-role-binding.yaml')!.text).toContain('  name: kubeairunway-controller-widget\n');
  });
});
