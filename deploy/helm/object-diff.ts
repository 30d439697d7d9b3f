// Which fields differ between two sets of Kubernetes objects, as `Kind namespace/name: dotted.path`
// lines (`+`/`-` for an object only in one set): the chart's tests say exactly which fields a value
// changes, and exactly how the chart's default render differs from install.yaml.

import type { KubeObject } from './objects.ts';

export const objectKey = (o: KubeObject) => `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;

function fieldPaths(a: unknown, b: unknown, path: string): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  const container = (v: unknown) => typeof v === 'object' && v !== null;
  if (!container(a) || !container(b) || Array.isArray(a) !== Array.isArray(b)) return [path];
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(ra), ...Object.keys(rb)])];
  return keys.flatMap((k) => fieldPaths(ra[k], rb[k], path ? `${path}.${k}` : k));
}

export function changedFields(before: readonly KubeObject[], after: readonly KubeObject[]): string[] {
  const byKey = (os: readonly KubeObject[]) => new Map(os.map((o) => [objectKey(o), o]));
  const a = byKey(before);
  const b = byKey(after);
  const out: string[] = [];
  for (const [key, o] of a) {
    const other = b.get(key);
    if (!other) out.push(`- ${key}`);
    else out.push(...fieldPaths(o, other, '').map((p) => `${key}: ${p}`));
  }
  for (const key of b.keys()) if (!a.has(key)) out.push(`+ ${key}`);
  return out.sort();
}
