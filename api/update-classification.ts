// Which spec changes force the provider resource to be deleted and recreated (identity fields) and which
// are patched in place (config fields): seed 001 §4.11, seed 000 "Update Semantics". Both specs are
// defaulted first, so writing out a default (source: huggingface) is no change.

import { applyDefaults } from './defaults.ts';
import { jsonEqual } from './json-equal.ts';
import { isPlainObject } from './overrides.ts';
import type { ModelDeploymentSpec } from './types.ts';

/** Paths relative to spec, as the seed's tables name them. */
export const IDENTITY_FIELDS = ['model.id', 'model.source', 'engine.type', 'provider.name', 'serving.mode'] as const;

export const CONFIG_FIELDS = [
  'model.servedName',
  'scaling.replicas',
  'scaling.prefill',
  'scaling.decode',
  'env',
  'resources',
  'engine.args',
  'engine.contextLength',
  'engine.trustRemoteCode',
  'image',
  'secrets.huggingFaceToken',
  'podTemplate.metadata',
  'nodeSelector',
  'tolerations',
  'provider.overrides',
  // Beyond the seed's table. Storage is a config field: volumes and mounts live in the provider
  // resource's pod templates, which every upstream operator rolls out in place (as for image or env),
  // and the managed claims are separate objects applied beside it, so nothing needs the provider
  // resource deleted. Recreating it would not help either: a claim's storageClassName and accessModes
  // are immutable once created (the API server refuses that change, shown as the provider resource's
  // refusal would be), and a smaller size is refused likewise; rename the volume to get a new claim.
  'model.storage',
  // Beyond the seed's table too: the route is an object beside the provider resource, patched in place.
  'gateway',
] as const;

export interface UpdateClassification {
  /** Changed identity fields: non-empty means delete and recreate the provider resource. */
  identity: string[];
  /** Changed config fields (and any other changed path the tables do not name): patch in place. */
  config: string[];
}

export function classifyUpdate(oldSpec: ModelDeploymentSpec, newSpec: ModelDeploymentSpec): UpdateClassification {
  const before = applyDefaults(oldSpec) as unknown;
  const after = applyDefaults(newSpec) as unknown;
  const changed = (path: string): boolean => !jsonEqual(at(before, path), at(after, path));

  const identity = IDENTITY_FIELDS.filter(changed);
  const config: string[] = CONFIG_FIELDS.filter(changed);

  // A field the tables do not name (added to the API later, say) is updated in place, never silently lost.
  const named = [...IDENTITY_FIELDS, ...CONFIG_FIELDS];
  for (const path of changedLeaves(before, after, '')) {
    const covered = named.some((f) => path === f || path.startsWith(`${f}.`) || f.startsWith(`${path}.`));
    if (!covered) config.push(path);
  }
  return { identity: [...identity], config };
}

function at(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}

/** Paths where two values differ, descending into objects present on both sides. */
function changedLeaves(a: unknown, b: unknown, prefix: string): string[] {
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => changedLeaves(a[k], b[k], prefix ? `${prefix}.${k}` : k));
  }
  return jsonEqual(a, b) || prefix === '' ? [] : [prefix];
}
