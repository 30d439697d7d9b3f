// Builds the local stack's binaries and the upstream operators (KubeRay, KEDA) from the Go module proxy
// into the tools cache, one at a time, after copying the KubeRay and KEDA CRD files out of their modules;
// skips what is already there. Usage: `npm run tools [-- --operators] [-- --only etcd,keda-crds,keda-operator]`
// (the operators only with --operators or when named).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { buildKedaOperator, buildKuberayOperator } from './build-operators.ts';
import { fetchCrdBundle } from './fetch-crds.ts';
import { binaryVersion, cachedBinaryPath, cachedCrdBundleDir, resolveCrdBundle, resolveTool, toolsCacheDir } from './resolve.ts';
import { elapsed, freshModule, goEnv, run, say, StepError, tail } from './run.ts';
import { CRD_BUNDLES, ETCD_VERSION, KUBERNETES_VERSION, TEMPORAL_VERSION, TOOLS } from './versions.ts';

async function buildTemporal(work: string, out: string, logFile: string): Promise<void> {
  const gobin = join(work, 'bin');
  mkdirSync(gobin, { recursive: true });
  const ldflags = `-s -w -X github.com/temporalio/cli/temporalcli.Version=${TEMPORAL_VERSION}`;
  await run(`go install temporal ${TEMPORAL_VERSION}`, 'go', ['install', '-trimpath', '-ldflags', ldflags, `github.com/temporalio/cli/cmd/temporal@v${TEMPORAL_VERSION}`], {
    cwd: work,
    env: { ...goEnv, GOBIN: gobin, GOFLAGS: '' },
    logFile,
  });
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

/**
 * `only`: exactly these (tools or CRD bundles); otherwise the stack's binaries and the CRD bundles, plus
 * the upstream operators when `operators` is set (the test suite runs them; `npm run dev` only with
 * --real-operators, so its first start does not wait for two more long builds).
 */
export async function buildTools(only?: Set<string>, operators = false): Promise<void> {
  await fetchCrdBundles(only);
  const wanted = TOOLS.filter((t) => (only ? only.has(t.name) : t.role === 'stack' || (operators && t.role === 'operator')));
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
      if (group === 'temporal') await buildTemporal(work, outs.temporal!, logFile);
      else if (group === 'etcd') await buildEtcd(work, outs.etcd!, logFile);
      else if (group === 'kuberay') await buildKuberayOperator(work, outs['kuberay-operator']!, logFile);
      else if (group === 'keda') await buildKedaOperator(work, outs['keda-operator']!, logFile);
      else await buildKubernetes(work, outs, logFile); // kubernetes (API server + controller manager) or kubelet
    } catch (err) {
      const step = err instanceof StepError ? err.step : 'prepare';
      const hint = specs.map((s) => `${s.envVar}=/path/to/${s.name}`).join(' ');
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const onlyArg = process.argv.indexOf('--only');
  const only = onlyArg > 0 ? new Set((process.argv[onlyArg + 1] ?? '').split(',')) : undefined;
  buildTools(only, process.argv.includes('--operators')).then(
    () => say('all tools ready'),
    (err: Error) => {
      process.stderr.write(`\n${err.message}\n`);
      process.exit(1);
    },
  );
}
