import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { CRD_BUNDLES, crdBundleSpec, TOOLS, toolSpec, type CrdBundleSpec, type ToolName, type ToolSpec } from './versions.ts';

/** Where built binaries live: outside the repository, keyed by name and version. */
export function toolsCacheDir(): string {
  if (process.env.KUBEAIRUNWAY_TOOLS_CACHE) return process.env.KUBEAIRUNWAY_TOOLS_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'kubeairunway', 'tools');
}

/** The binary in the cache; for a tool made of several programs (`programs`), their folder. */
export function cachedBinaryPath(spec: ToolSpec): string {
  const dir = join(toolsCacheDir(), `${spec.name}-${spec.version}`);
  return spec.programs ? dir : join(dir, spec.name);
}

export type ToolSource = 'env' | 'cache' | 'path';

export interface ResolvedTool {
  name: ToolName;
  path: string;
  source: ToolSource;
  version: string | undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The version a binary reports, or undefined when it cannot run or says something unexpected. For a
 * folder of programs: their version when every one of them reports the same, so a half-copied folder
 * is not taken.
 */
export function binaryVersion(spec: ToolSpec, path: string): string | undefined {
  if (spec.programs) {
    const versions = new Set(spec.programs.map((p) => programVersion(spec, join(path, p))));
    return versions.size === 1 ? [...versions][0] : undefined;
  }
  return programVersion(spec, path);
}

function programVersion(spec: ToolSpec, path: string): string | undefined {
  const [cmd, args] = spec.goModule ? ['go', ['version', '-m', path]] : [path, spec.versionArgs];
  // stderr too: the CNI plugins print their version line there. Without CNI_COMMAND, which would make a plugin act.
  const env = { ...process.env, CNI_COMMAND: undefined };
  const result = spawnSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 20_000, env });
  if (result.status !== 0) return undefined;
  return spec.versionPattern.exec(`${result.stdout}${result.stderr}`)?.[1];
}

function onPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, binary);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function sameMinor(a: string, b: string): boolean {
  return a.split('.').slice(0, 2).join('.') === b.split('.').slice(0, 2).join('.');
}

/**
 * Finds a usable binary without building anything. An explicit environment variable always wins (the
 * user said so); then our cache, when the binary reports the pinned version; then PATH, when the binary
 * there has the pinned minor version (an older etcd or Kubernetes would break the stack subtly).
 */
export function resolveTool(name: ToolName): ResolvedTool | undefined {
  const spec = toolSpec(name);
  const fromEnv = process.env[spec.envVar];
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`${spec.envVar}=${fromEnv} is not an executable file`);
    return { name, path: fromEnv, source: 'env', version: binaryVersion(spec, fromEnv) };
  }
  const cached = cachedBinaryPath(spec);
  if (isExecutable(cached) && binaryVersion(spec, cached) === spec.version) {
    return { name, path: cached, source: 'cache', version: spec.version };
  }
  // A folder of programs is not looked for on PATH: one plugin found there says nothing of the others.
  const found = spec.programs ? undefined : onPath(spec.name);
  if (found) {
    const version = binaryVersion(spec, found);
    if (version && sameMinor(version, spec.version)) return { name, path: found, source: 'path', version };
  }
  return undefined;
}

/** Resolves every binary the local stack runs (not the optional operators) or throws one error naming what is missing and how to get it. */
export function resolveAllTools(): Record<ToolName, string> {
  const missing: ToolSpec[] = [];
  const paths = {} as Record<ToolName, string>;
  for (const spec of TOOLS.filter((t) => t.role === 'stack')) {
    const resolved = resolveTool(spec.name);
    if (resolved) paths[spec.name] = resolved.path;
    else missing.push(spec);
  }
  if (missing.length > 0) {
    const hints = missing.map((s) => `${s.name} ${s.version} (or set ${s.envVar})`).join(', ');
    throw new Error(`missing local-stack binaries: ${hints}. Run \`npm run tools\` to build them.`);
  }
  return paths;
}

/** An upstream operator's binary, or an error saying how to get it. */
export function resolveOperator(name: 'kuberay-operator' | 'keda-operator'): string {
  const found = resolveTool(name);
  if (found) return found.path;
  const spec = toolSpec(name);
  throw new Error(`missing ${name} ${spec.version} (or set ${spec.envVar}). Run \`npm run tools -- --operators\` to build it (several minutes the first time).`);
}

export function cachedCrdBundleDir(spec: CrdBundleSpec): string {
  return join(toolsCacheDir(), `${spec.name}-${spec.version}`);
}

/** The cached copies of a bundle's files, or undefined when any is missing. */
export function resolveCrdBundle(spec: CrdBundleSpec): string[] | undefined {
  const dir = cachedCrdBundleDir(spec);
  const paths = spec.files.map((f) => join(dir, f.split('/').pop()!));
  return paths.every((p) => existsSync(p)) ? paths : undefined;
}

/** The CRD files of a bundle, or an error saying how to fetch them. */
export function crdBundleFiles(name: CrdBundleSpec['name']): string[] {
  const spec = crdBundleSpec(name);
  const found = resolveCrdBundle(spec);
  if (found) return found;
  throw new Error(`missing the ${spec.module}@v${spec.version} CRD files in ${cachedCrdBundleDir(spec)}. Run \`npm run tools\` to fetch them.`);
}

/** Every bundle's CRD files (KubeRay's, then KEDA's). */
export function allCrdBundleFiles(): string[] {
  return CRD_BUNDLES.flatMap((b) => crdBundleFiles(b.name));
}
