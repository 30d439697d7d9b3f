// What the API server dropped or changed of an object we sent: the fields of a server-side dry-run's
// answer, compared with the request, path by path. Only what we sent is walked, so everything the server
// adds (uid, resourceVersion, creationTimestamp, managedFields, schema defaults, an empty status) never
// counts; a field we sent that is missing from the answer was pruned (not declared in the schema the
// server stores the object with), one whose value differs was rewritten. Pure.

export interface FieldLoss {
  /** From the object's root: `spec.services.Frontend["router-mode"]`, `spec.components[0].name`. */
  path: string;
  /** `pruned`: absent from the answer; `changed`: present with another value (or type). */
  kind: 'pruned' | 'changed';
  sent: unknown;
  /** What came back; absent when pruned. */
  returned?: unknown;
}

export interface CompareOptions {
  /** Paths the server may rewrite, e.g. `metadata.name` of an object sent with generateName. */
  ignore?: readonly string[];
}

/** Every field of `sent` that `returned` does not hold as sent; a lost subtree is reported once, at its root. */
export function lostFields(sent: unknown, returned: unknown, options: CompareOptions = {}): FieldLoss[] {
  const losses: FieldLoss[] = [];
  const ignore = new Set(options.ignore ?? []);
  walk(sent, returned, '', losses, ignore);
  return losses;
}

function walk(sent: unknown, returned: unknown, path: string, losses: FieldLoss[], ignore: ReadonlySet<string>): void {
  if (ignore.has(path)) return;
  if (isObject(sent)) {
    if (!isObject(returned)) {
      losses.push({ path: path || '(root)', kind: 'changed', sent, returned });
      return;
    }
    for (const [key, value] of Object.entries(sent)) {
      const child = childPath(path, key);
      if (ignore.has(child)) continue;
      if (!Object.hasOwn(returned, key)) losses.push({ path: child, kind: 'pruned', sent: value });
      else walk(value, returned[key], child, losses, ignore);
    }
    return;
  }
  if (Array.isArray(sent)) {
    if (!Array.isArray(returned)) {
      losses.push({ path, kind: 'changed', sent, returned });
      return;
    }
    sent.forEach((item, i) => {
      const child = `${path}[${i}]`;
      if (i >= returned.length) losses.push({ path: child, kind: 'pruned', sent: item });
      else walk(item, returned[i], child, losses, ignore);
    });
    return;
  }
  if (!Object.is(sent, returned)) losses.push({ path, kind: 'changed', sent, returned });
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `a.b`, or `a["kubeairunway.ai/managed-by"]` for a key that is not a plain identifier. */
export function childPath(parent: string, key: string): string {
  if (PLAIN_KEY.test(key)) return parent ? `${parent}.${key}` : key;
  return `${parent}[${JSON.stringify(key)}]`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
