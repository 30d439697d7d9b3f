// Builds the local stack's binaries, the upstream operators (KubeRay, KEDA) and the cluster mode's tools
// from the Go module proxy into the tools cache, one build at a time, after copying the KubeRay and KEDA
// CRD files out of their modules; skips what is already there. Usage: `npm run tools [-- --operators]
// [-- --cluster] [-- --only etcd,keda-crds,keda-operator]` (the operators only with --operators, the
// cluster mode's tools only with --cluster, or either when named).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { buildCniPlugins, buildCoredns, buildHelm, buildLocalPathProvisioner, buildTraefik } from './build-cluster.ts';
import { buildKedaOperator, buildKuberayOperator } from './build-operators.ts';
import { fetchCrdBundle } from './fetch-crds.ts';
import { checkMaven, fetchMavenTool, resolveMavenTool } from './maven-tool.ts';
import { binaryVersion, cachedBinaryPath, cachedCrdBundleDir, resolveCrdBundle, resolveTool, toolsCacheDir } from './resolve.ts';
import { elapsed, freshModule, goEnv, goInstall, run, say, StepError, tail, withOutput } from './run.ts';
import { CRD_BUNDLES, ETCD_VERSION, KUBERNETES_VERSION, TEMPORAL_TEST_SERVER, TEMPORAL_VERSION, TOOLS, type ToolName, type ToolSpec } from './versions.ts';

async function buildTemporal(work: string, out: string, logFile: string): Promise<void> {
  const ldflags = `-s -w -X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_VERSION}`;
  const gobin = await goInstall(`go install temporal ${TEMPORAL_VERSION}`, [`github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_VERSION}`], ldflags, work, logFile);
  renameSync(join(gobin, 'temporal'), join(out, 'temporal'));
}

async function buildEtcd(work: string, out: string, logFile: string): Promise<void> {
  // etcd's server module replaces its siblings with local paths, so `go install` refuses it; a
  // throwaway module that requires it resolves the siblings at the same tag instead.
  freshModule(work, 'etcd-build');
  await run(`go get etcd ${ETCD_VERSION}`, 'go', ['get', `go.etcd.io/etcd/server/v3@v${ETCD_VERSION}`], { cwd: work, env: goEnv, logFile });
  await run(`go build etcd ${ETCD_VERSION}`, 'go', ['build', '-trimpath', '-ldflags', '-s -w', '-o', join(out, 'etcd'), 'go.etcd.io/etcd/server/v3'], {
    cwd: work,
    env: goEnv,
    logFile,
  });
}

async function buildKubernetes(work: string, outs: Record<string, string>, logFile: string): Promise<void> {
  // k8s.io/kubernetes requires its staging modules at v0.0.0 and maps them to ./staging; a consumer
  // must map each one to the published v0.<minor>.<patch> tag instead.
  freshModule(work, 'kube-build');
  const info = JSON.parse(await run('fetch k8s.io/kubernetes go.mod', 'go', ['mod', 'download', '-json', `k8s.io/kubernetes@v${KUBERNETES_VERSION}`], { cwd: work, env: goEnv, logFile })) as {
    GoMod: string;
  };
  const staging = [...readFileSync(info.GoMod, 'utf8').matchAll(/^\s*(k8s\.io\/[a-z0-9-]+)\s+=>\s+\.\/staging\//gm)].map((m) => m[1]!);
  const stagingVersion = `v0.${KUBERNETES_VERSION.split('.').slice(1).join('.')}`;
  await run(`pin ${staging.length} staging modules at ${stagingVersion}`, 'go', ['mod', 'edit', ...staging.map((m) => `-replace=${m}=${m}@${stagingVersion}`)], {
    cwd: work,
    env: goEnv,
    logFile,
  });
  const cmds = Object.keys(outs).map((c) => `k8s.io/kubernetes/cmd/${c}`);
  await run(`go get kubernetes ${KUBERNETES_VERSION}`, 'go', ['get', ...cmds.map((c) => `${c}@v${KUBERNETES_VERSION}`)], { cwd: work, env: goEnv, logFile });
  const [major, minor] = KUBERNETES_VERSION.split('.');
  const ldflags = ['-s', '-w'];
  for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
    ldflags.push(`-X ${pkg}.gitVersion=v${KUBERNETES_VERSION}`, `-X ${pkg}.gitMajor=${major}`, `-X ${pkg}.gitMinor=${minor}`);
  }
  const binDir = join(work, 'bin');
  mkdirSync(binDir, { recursive: true });
  // One `go build` for all commands of a group: they share most packages, so this is much faster than separate builds.
  await run(`go build ${Object.keys(outs).join(' + ')} ${KUBERNETES_VERSION}`, 'go', ['build', '-trimpath', '-ldflags', ldflags.join(' '), '-o', `${binDir}/`, ...cmds], {
    cwd: work,
    env: goEnv,
    logFile,
  });
  for (const [name, out] of Object.entries(outs)) renameSync(join(binDir, name), join(out, name));
}

/** Builds one group's binaries into `outs` (tool name -> its folder in the cache). */
type Builder = (work: string, outs: Record<string, string>, logFile: string) => Promise<void>;

const BUILDERS: Record<ToolSpec['build'], Builder> = {
  temporal: (work, outs, logFile) => buildTemporal(work, outs.temporal!, logFile),
  etcd: (work, outs, logFile) => buildEtcd(work, outs.etcd!, logFile),
  kubernetes: buildKubernetes,
  'kubernetes-node': buildKubernetes,
  kuberay: (work, outs, logFile) => buildKuberayOperator(work, outs['kuberay-operator']!, logFile),
  keda: (work, outs, logFile) => buildKedaOperator(work, outs['keda-operator']!, logFile),
  'cni-plugins': (work, outs, logFile) => buildCniPlugins(work, outs['cni-plugins']!, logFile),
  coredns: (work, outs, logFile) => buildCoredns(work, outs.coredns!, logFile),
  helm: (work, outs, logFile) => buildHelm(work, outs.helm!, logFile),
  'local-path-provisioner': (work, outs, logFile) => buildLocalPathProvisioner(work, outs['local-path-provisioner']!, logFile),
  traefik: (work, outs, logFile) => buildTraefik(work, outs.traefik!, logFile),
};

function checkGo(): void {
  let version: string | undefined;
  try {
    version = /go(\d+\.\d+)/.exec(execFileSync('go', ['env', 'GOVERSION'], { encoding: 'utf8' }))?.[1];
  } catch {
    version = undefined;
  }
  const [major = 0, minor = 0] = (version ?? '0.0').split('.').map(Number);
  if (major > 1 || (major === 1 && minor >= 24)) return;
  const why = version ? `Go ${version} is too old (need >= 1.24)` : 'Go is not installed (need >= 1.24)';
  throw new Error(`${why}. Install Go, or point ${TOOLS.map((t) => t.envVar).join(', ')} at existing binaries.`);
}

/** Copies the KubeRay and KEDA CRD files from their Go modules into the cache, unless they are there. */
async function fetchCrdBundles(only?: Set<string>): Promise<void> {
  for (const spec of CRD_BUNDLES.filter((b) => !only || only.has(b.name))) {
    if (resolveCrdBundle(spec)) {
      say(`${spec.name}: using ${cachedCrdBundleDir(spec)} (cache, ${spec.version})`);
      continue;
    }
    checkGo();
    const logFile = join(toolsCacheDir(), 'logs', `${spec.name}-${spec.version}.log`);
    mkdirSync(join(toolsCacheDir(), 'logs'), { recursive: true });
    const t0 = Date.now();
    say(`fetching ${spec.name} ${spec.version}: ${spec.files.length} CRD files from ${spec.module} (log: ${logFile})`);
    try {
      await fetchCrdBundle(spec, join(toolsCacheDir(), 'src', `${spec.name}-${spec.version}`), logFile);
    } catch (err) {
      const why = err instanceof StepError ? `at step "${err.step}". Last lines of ${logFile}:\n${tail(logFile)}` : (err as Error).message;
      throw new Error(`fetching ${spec.name} ${spec.version} failed ${why}`);
    }
    say(`fetched ${spec.name} in ${elapsed(t0)}`);
  }
}

/** Fetches the workflow tests' time-skipping server (Java jars from Maven Central) unless it is there. */
export async function fetchTestServer(only?: Set<string>): Promise<void> {
  const spec = TEMPORAL_TEST_SERVER;
  if (only && !only.has(spec.name)) return;
  const found = resolveMavenTool(spec);
  if (found) {
    say(`${spec.name}: using ${found} (${process.env[spec.envVar] ? 'env' : `cache, ${spec.version}`})`);
    return;
  }
  checkMaven(spec);
  const logFile = join(toolsCacheDir(), 'logs', `${spec.name}-${spec.version}.log`);
  mkdirSync(join(toolsCacheDir(), 'logs'), { recursive: true });
  const t0 = Date.now();
  say(`fetching ${spec.name} ${spec.version} from Maven Central (log: ${logFile})`);
  try {
    await fetchMavenTool(spec, join(toolsCacheDir(), 'src', `${spec.name}-${spec.version}`), logFile);
  } catch (err) {
    const why = err instanceof StepError ? `at step "${err.step}". Last lines of ${logFile}:\n${tail(logFile)}` : (err as Error).message;
    throw new Error(`fetching ${spec.name} ${spec.version} failed ${why}\n\nTo use jars fetched elsewhere, set ${spec.envVar}=/path/to/folder.`);
  }
  say(`fetched ${spec.name} in ${elapsed(t0)}`);
}

export interface BuildSelection {
  /** Exactly these tools or CRD bundles, nothing else. */
  only?: Set<string>;
  /** The upstream operators too (the test suite runs them; `npm run dev` only with --real-operators). */
  operators?: boolean;
  /** The cluster mode's tools too (the test suite's cluster tests; `npm run dev` only with --cluster). */
  cluster?: boolean;
}

/**
 * The stack's binaries, the CRD bundles and the workflow tests' test server (jars: seconds, not a build),
 * plus what the selection adds. Plain `npm run dev` builds no more than the stack, so its first start does
 * not wait for the longer optional builds.
 */
export async function buildTools({ only, operators = false, cluster = false }: BuildSelection = {}): Promise<void> {
  await fetchCrdBundles(only);
  await fetchTestServer(only);
  const extra = (role: ToolSpec['role']) => (role === 'operator' && operators) || (role === 'cluster' && cluster);
  const wanted = TOOLS.filter((t) => (only ? only.has(t.name) : t.role === 'stack' || extra(t.role)));
  const missing = wanted.filter((spec) => {
    const found = resolveTool(spec.name);
    if (found) say(`${spec.name}: using ${found.path} (${found.source}${found.version ? `, ${found.version}` : ''})`);
    return !found;
  });
  if (missing.length === 0) return;
  checkGo();
  const cache = toolsCacheDir();
  const groups = [...new Set(missing.map((s) => s.build))];
  for (const group of groups) {
    const specs = missing.filter((s) => s.build === group);
    const work = join(cache, 'src', `${group}-${specs[0]!.version}`);
    const logFile = join(cache, 'logs', `${group}-${specs[0]!.version}.log`);
    mkdirSync(join(cache, 'logs'), { recursive: true });
    mkdirSync(work, { recursive: true });
    const outs = Object.fromEntries(
      specs.map((s) => {
        const dir = join(cache, `${s.name}-${s.version}`);
        mkdirSync(dir, { recursive: true });
        return [s.name, dir];
      }),
    );
    const t0 = Date.now();
    say(`building ${specs.map((s) => `${s.name} ${s.version}`).join(' + ')} (log: ${logFile})`);
    try {
      await BUILDERS[group](work, outs, logFile);
    } catch (err) {
      // A step that is not a command (reading a go.mod, moving a binary) says what went wrong itself.
      const step = err instanceof StepError ? err.step : `prepare: ${(err as Error).message}`;
      const hint = specs.map((s) => `${s.envVar}=/path/to/${s.programs ? 'folder' : s.name}`).join(' ');
      throw new Error(
        `building ${group} failed at step "${step}". Last lines of ${logFile}:\n${tail(logFile)}\n\n` +
          `To use existing binaries instead, set ${hint} (or put ${specs.map((s) => s.name).join(', ')} ${specs[0]!.version.split('.').slice(0, 2).join('.')}.x on PATH).`,
      );
    }
    for (const s of specs) {
      const v = binaryVersion(s, cachedBinaryPath(s));
      if (v !== s.version) throw new Error(`built ${s.name} reports version ${v ?? '(none)'}, expected ${s.version}`);
    }
    say(`built ${specs.map((s) => s.name).join(' + ')} in ${elapsed(t0)}`);
  }
}

/**
 * Builds whichever of `names` no environment variable, cache entry or PATH binary provides (progress
 * lines to `log`, stdout without it) and answers each one's path; for `cni-plugins` the folder of the
 * plugins. For `npm run dev -- --cluster`, which needs the cluster tools that plain setup skips.
 */
export async function ensureTools<N extends ToolName>(names: readonly N[], log?: (line: string) => void): Promise<Record<N, string>> {
  await withOutput(log, () => buildTools({ only: new Set(names) }));
  const paths = {} as Record<N, string>;
  for (const name of names) {
    const found = resolveTool(name);
    if (!found) throw new Error(`${name} was built but is still not found in ${toolsCacheDir()}`);
    paths[name] = found.path;
  }
  return paths;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const onlyArg = process.argv.indexOf('--only');
  const only = onlyArg > 0 ? new Set((process.argv[onlyArg + 1] ?? '').split(',')) : undefined;
  buildTools({ only, operators: process.argv.includes('--operators'), cluster: process.argv.includes('--cluster') }).then(
    () => say('all tools ready'),
    (err: Error) => {
      process.stderr.write(`\n${err.message}\n`);
      process.exit(1);
    },
  );
}
