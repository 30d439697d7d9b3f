// Defaults of a ModelDeployment spec (seed 001 §4.1, §4.4, §15.2). Mirrors the `default:` values of the
// CRD schema (api/crd/model-deployment-schema.ts), plus the one default the API server cannot compute:
// servedName from the model id. Pure: returns a new object and never throws. Fields of the wrong type
// are left alone for validation to report.

import { DEFAULT_GPU_TYPE } from './constants.ts';
import { isPlainObject } from './overrides.ts';
import { modelBasename } from './spec-helpers.ts';
import type { ModelDeploymentSpec } from './types.ts';

type Obj = Record<string, unknown>;

export interface DefaultsOptions {
  /**
   * Also fill model.servedName from model.id (default true). A mutating webhook may prefer false: a
   * persisted servedName would survive a later change of model.id made with `kubectl apply`.
   */
  derivedFields?: boolean;
}

export function applyDefaults(spec: ModelDeploymentSpec, options: DefaultsOptions = {}): ModelDeploymentSpec {
  if (!isPlainObject(spec)) return spec;
  const out = jsonCopy(spec) as Obj;

  const model = ensureObject(out, 'model');
  if (model) {
    setDefault(model, 'source', 'huggingface');
    if ((options.derivedFields ?? true) && model.source === 'huggingface' && typeof model.id === 'string' && model.id !== '') {
      setDefault(model, 'servedName', modelBasename(model.id));
    }
  }

  const serving = ensureObject(out, 'serving');
  if (serving) setDefault(serving, 'mode', 'aggregated');

  const scaling = ensureObject(out, 'scaling');
  if (scaling) {
    setDefault(scaling, 'replicas', 1);
    for (const component of ['prefill', 'decode']) {
      const c = scaling[component];
      if (isPlainObject(c)) {
        setDefault(c, 'replicas', 1);
        defaultGpu(c.gpu);
      }
    }
  }

  const resources = out.resources;
  if (isPlainObject(resources)) defaultGpu(resources.gpu);

  const engine = out.engine;
  if (isPlainObject(engine)) setDefault(engine, 'trustRemoteCode', false);

  return out as ModelDeploymentSpec;
}

/** A gpu object without a count means no GPU; without a type, NVIDIA's resource name. */
function defaultGpu(gpu: unknown): void {
  if (!isPlainObject(gpu)) return;
  setDefault(gpu, 'count', 0);
  setDefault(gpu, 'type', DEFAULT_GPU_TYPE);
}

/** Returns the object at `key`, creating it when absent (or null, which the API server treats as absent). */
function ensureObject(parent: Obj, key: string): Obj | undefined {
  if (parent[key] == null) parent[key] = {};
  const value = parent[key];
  return isPlainObject(value) ? value : undefined;
}

/**
 * A deep copy of the JSON structure (plain objects and lists; other values kept as they are). Iterative,
 * so no nesting depth can exhaust the stack (structuredClone did, from about 3,000 levels, which the API
 * server stores under provider.overrides), and keys such as `__proto__` stay own properties.
 */
function jsonCopy(value: unknown): unknown {
  const copyOf = (v: unknown): unknown => (Array.isArray(v) ? new Array<unknown>(v.length) : isPlainObject(v) ? {} : v);
  const root = copyOf(value);
  const stack: Array<[unknown, unknown]> = root !== value ? [[value, root]] : [];
  while (stack.length > 0) {
    const [from, to] = stack.pop() as [Record<string, unknown>, Record<string, unknown>];
    for (const key of Object.keys(from)) {
      const child = from[key];
      const copy = copyOf(child);
      Object.defineProperty(to, key, { value: copy, enumerable: true, writable: true, configurable: true });
      if (copy !== child) stack.push([child, copy]);
    }
  }
  return root;
}

function setDefault(target: Obj, key: string, value: unknown): void {
  if (target[key] == null) target[key] = value;
}
