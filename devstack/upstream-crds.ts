// The upstream projects' own CRD files for the kinds no registry here ships (KAITO Workspace, Dynamo
// DynamoGraphDeployment). They are data kept beside the repository (`../shared/upstream-crds/`, verbatim,
// sources in its SOURCES.md), never copied into it; tests read them from there. Pure helpers only: where
// the files are, reading them, and the one change a cluster without the Dynamo operator needs.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isPlainObject } from '../api/overrides.ts';
import type { AnyObject } from '../kube/custom-objects.ts';
import { readYamlDocuments } from './yaml-cache.ts';

/** Overrides where the upstream CRD files are (a folder holding the files named in UPSTREAM_CRD_FILES). */
export const UPSTREAM_CRDS_ENV = 'KUBEAIRUNWAY_UPSTREAM_CRDS';

/** The files, by what they define; names as in the shared folder. */
export const UPSTREAM_CRD_FILES = {
  kaitoWorkspaces: 'kaito-workspaces.yaml',
  dynamoGraphDeployments: 'dynamo-dynamographdeployments.yaml',
  dynamoComponentDeployments: 'dynamo-dynamocomponentdeployments.yaml',
  gaieInferencePools: 'gaie-inferencepools.yaml',
} as const;

export type UpstreamCrd = keyof typeof UPSTREAM_CRD_FILES;

/**
 * `$KUBEAIRUNWAY_UPSTREAM_CRDS`, else `shared/upstream-crds` beside the repository or beside one of the
 * folders above it (a clone made elsewhere under the same workspace finds it too); `<repo>/../shared/
 * upstream-crds` when there is none, so messages name the usual place.
 */
export function upstreamCrdsDir(repoRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[UPSTREAM_CRDS_ENV];
  if (fromEnv) return resolve(fromEnv);
  for (let dir = resolve(repoRoot, '..'); ; dir = dirname(dir)) {
    const candidate = join(dir, 'shared', 'upstream-crds');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return resolve(repoRoot, '..', 'shared', 'upstream-crds');
  }
}

export function upstreamCrdPath(repoRoot: string, which: UpstreamCrd, env: NodeJS.ProcessEnv = process.env): string {
  return join(upstreamCrdsDir(repoRoot, env), UPSTREAM_CRD_FILES[which]);
}

/** True when every named file is there (the tests need them; `npm run dev` falls back to stand-ins). */
export function hasUpstreamCrds(repoRoot: string, which: readonly UpstreamCrd[], env: NodeJS.ProcessEnv = process.env): boolean {
  return which.every((w) => existsSync(upstreamCrdPath(repoRoot, w, env)));
}

/** Reads one upstream CRD file; a missing file says where it was looked for and how to point elsewhere. */
export function loadUpstreamCrd(repoRoot: string, which: UpstreamCrd, env: NodeJS.ProcessEnv = process.env): AnyObject {
  const path = upstreamCrdPath(repoRoot, which, env);
  if (!existsSync(path)) {
    throw new Error(`upstream CRD file ${UPSTREAM_CRD_FILES[which]} not found at ${path}; set ${UPSTREAM_CRDS_ENV} to the folder that holds the upstream CRD files`);
  }
  const crds = (readYamlDocuments(path) as (AnyObject | null)[]).filter((c): c is AnyObject => c?.kind === 'CustomResourceDefinition');
  if (crds.length !== 1) throw new Error(`${path}: expected one CustomResourceDefinition, found ${crds.length}`);
  return crds[0]!;
}

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  [field: string]: unknown;
}

const isCrdVersion = (v: unknown): v is CrdVersion => isPlainObject(v) && typeof v.name === 'string';

export interface ConversionOptions {
  /** The version to store (exactly one is); unchanged when omitted. */
  storage?: string;
  /** The versions to serve (the others stay defined but are not served); unchanged when omitted. */
  served?: readonly string[];
}

/**
 * A copy of `crd` that converts between its versions with strategy None (only apiVersion changes) instead
 * of through a webhook. Dynamo's CRDs name the Dynamo operator's conversion webhook, which does not run
 * on a cluster without that operator: there every request in a non-storage version would fail. With None,
 * an object is validated and pruned against the version it is sent in and stored as the storage version,
 * so a test must send the version it stores (or serve only that one) for its fields to survive.
 */
export function withoutConversionWebhook(crd: AnyObject, opts: ConversionOptions = {}): AnyObject {
  const name = crd.metadata?.name ?? '(unnamed CRD)';
  if (crd.kind !== 'CustomResourceDefinition') throw new Error(`${name}: kind is ${String(crd.kind)}, not CustomResourceDefinition`);
  const copy = structuredClone(crd);
  const spec = isPlainObject(copy.spec) ? copy.spec : {};
  const versions: unknown[] = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) throw new Error(`${name}: spec.versions is empty`);
  if (!versions.every(isCrdVersion)) throw new Error(`${name}: every item of spec.versions needs a name`);
  const known = versions.map((v) => v.name);
  const unknown = [opts.storage, ...(opts.served ?? [])].filter((v): v is string => v !== undefined && !known.includes(v));
  if (unknown.length > 0) throw new Error(`${name}: no version ${unknown.join(', ')} (it defines ${known.join(', ')})`);
  if (opts.served) {
    if (opts.served.length === 0) throw new Error(`${name}: served must name at least one version`);
    for (const v of versions) v.served = opts.served.includes(v.name);
  }
  if (opts.storage !== undefined) {
    for (const v of versions) v.storage = v.name === opts.storage;
  }
  const stored = versions.filter((v) => v.storage === true);
  if (stored.length !== 1) throw new Error(`${name}: exactly one version must be the storage version, found ${stored.length}`);
  copy.spec = { ...spec, conversion: { strategy: 'None' } };
  return copy;
}
