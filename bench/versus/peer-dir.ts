// The peer controller the side-by-side bench runs beside ours: one the user already has, built their own
// way, given as a directory. The bench never builds, unpacks or downloads one. Layout (docs/operations.md):
//
//   <dir>/bin/manager             the peer's core manager (controller-runtime flags, see controller-processes.ts)
//   <dir>/bin/dynamo-provider     its provider binaries, one per built-in provider ours also runs
//   <dir>/bin/kaito-provider
//   <dir>/bin/kuberay-provider
//   <dir>/crds/*.yaml             its CRDs; one must define modeldeployments.airunway.ai
import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const PEER_PROVIDERS = ['dynamo', 'kaito', 'kuberay'] as const;
export type PeerProvider = (typeof PEER_PROVIDERS)[number];

/** The flag and the environment variable that name the directory. */
export const PEER_DIR_FLAG = '--versus-peer';
export const PEER_DIR_ENV = 'KUBEAIRUNWAY_BENCH_PEER_DIR';

/** The peer's API group; its ModelDeployment spec fields are ours (see subjects.ts). */
export const PEER_GROUP = 'airunway.ai';

export interface PeerDir {
  dir: string;
  manager: string;
  providers: Record<PeerProvider, string>;
  /** Every `crds/*.yaml`, sorted: applied with ours before kube-controller-manager starts. */
  crdFiles: string[];
}

/** Thrown for a directory that does not have the layout; the message names what is missing. */
export class PeerDirError extends Error {
  override name = 'PeerDirError';
}

/** What the bench says when no directory is given: how to give one. */
export const PEER_DIR_HOWTO =
  `no peer directory given, so ours is measured alone. To run the peer beside ours, pass ${PEER_DIR_FLAG} <dir> ` +
  `(or set ${PEER_DIR_ENV}=<dir>), where <dir> holds the peer as you built it: bin/manager, ` +
  `${PEER_PROVIDERS.map((p) => `bin/${p}-provider`).join(', ')} and crds/*.yaml (docs/operations.md, "Benchmarks")`;

function executable(path: string, what: string): string {
  if (!existsSync(path)) throw new PeerDirError(`peer directory: ${what} ${path} is missing`);
  if (!statSync(path).isFile()) throw new PeerDirError(`peer directory: ${what} ${path} is not a file`);
  try {
    accessSync(path, constants.X_OK);
  } catch {
    throw new PeerDirError(`peer directory: ${what} ${path} is not executable (chmod +x it)`);
  }
  return path;
}

/** Whether a YAML file defines the CRD of `plural.group` (a file may hold several documents). */
function definesCrd(file: string, group: string, plural: string): boolean {
  let docs;
  try {
    docs = parseAllDocuments(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new PeerDirError(`peer directory: ${file} cannot be read as YAML: ${(err as Error).message}`);
  }
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new PeerDirError(`peer directory: ${file} is not valid YAML: ${doc.errors[0]!.message}`);
    const obj = doc.toJS() as { kind?: unknown; spec?: { group?: unknown; names?: { plural?: unknown } } } | null;
    if (obj?.kind === 'CustomResourceDefinition' && obj.spec?.group === group && obj.spec.names?.plural === plural) return true;
  }
  return false;
}

/** Checks the layout and returns the paths; a PeerDirError names the first missing or wrong file. */
export function resolvePeerDir(dir: string): PeerDir {
  const root = resolve(dir);
  if (!existsSync(root) || !statSync(root).isDirectory()) throw new PeerDirError(`peer directory ${root} does not exist or is not a directory`);
  const bin = join(root, 'bin');
  const manager = executable(join(bin, 'manager'), 'the manager binary');
  const providers = Object.fromEntries(PEER_PROVIDERS.map((p) => [p, executable(join(bin, `${p}-provider`), `the ${p} provider binary`)])) as Record<PeerProvider, string>;
  const crdDir = join(root, 'crds');
  if (!existsSync(crdDir) || !statSync(crdDir).isDirectory()) throw new PeerDirError(`peer directory: the CRD folder ${crdDir} is missing`);
  const crdFiles = readdirSync(crdDir)
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort()
    .map((f) => join(crdDir, f));
  if (crdFiles.length === 0) throw new PeerDirError(`peer directory: ${crdDir} holds no *.yaml CRD file`);
  if (!crdFiles.some((f) => definesCrd(f, PEER_GROUP, 'modeldeployments'))) {
    throw new PeerDirError(`peer directory: no file in ${crdDir} defines the CRD modeldeployments.${PEER_GROUP} (the peer's ModelDeployment)`);
  }
  return { dir: root, manager, providers, crdFiles };
}

/**
 * The directory from the command line or the environment, the flag first. `--versus-reference <dir>` is
 * the flag's former name. A flag with no value (end of the line, or another flag next) counts as none.
 */
export function peerDirArgument(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  for (const flag of [PEER_DIR_FLAG, '--versus-reference']) {
    const i = argv.indexOf(flag);
    const value = i >= 0 ? argv[i + 1] : undefined;
    if (value && !value.startsWith('--')) return value;
  }
  return env[PEER_DIR_ENV] || undefined;
}
