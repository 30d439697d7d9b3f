// Whether a subject's objects keep what it wrote. A CRD stored in another version than the one a
// controller writes, with no conversion between them, prunes every field the storage version does not
// declare: the controller then finds its object changed, rewrites it, and does so forever, and every
// figure measured for it is about that loop, not about the controller. The API server records what
// each writer set (metadata.managedFields, in the writer's version, before the object is pruned for
// storage), so comparing those fields with the object as stored shows the loss on any sample.

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The fields a writer recorded in `managedFields` that the object as stored does not have, as dotted
 * paths (`spec.services`), each named once, the outermost missing one only. List items (`k:`, `v:`,
 * `i:` keys) are not followed: a missing list is reported at the list, which is what pruning removes.
 */
export function lostFields(object: unknown): string[] {
  const managed = isRecord(object) && isRecord(object.metadata) ? object.metadata.managedFields : undefined;
  const lost = new Set<string>();
  for (const entry of Array.isArray(managed) ? managed : []) {
    if (isRecord(entry) && isRecord(entry.fieldsV1)) collectLost(entry.fieldsV1, object, [], lost);
  }
  return [...lost].sort();
}

/** Walks a field set (`fieldsV1`): `f:<name>` keys, `.` for the node itself, `k:`/`v:`/`i:` for list items. */
function collectLost(fields: Record<string, unknown>, value: unknown, path: string[], lost: Set<string>): void {
  for (const [key, children] of Object.entries(fields)) {
    if (!key.startsWith('f:') || !isRecord(children)) continue;
    const name = key.slice(2);
    const here = [...path, name];
    if (!isRecord(value) || !(name in value)) {
      lost.add(here.join('.'));
      continue;
    }
    collectLost(children, value[name], here, lost);
  }
}

/** What the bench found on a sample of one subject's objects. */
export interface FieldLossSample {
  kind: string;
  sampled: number;
  /** Each lost path and on how many of the sampled objects it was lost. */
  lost: { path: string; objects: number }[];
}

export function sampleFieldLoss(kind: string, objects: readonly unknown[]): FieldLossSample {
  const counts = new Map<string, number>();
  for (const object of objects) for (const path of lostFields(object)) counts.set(path, (counts.get(path) ?? 0) + 1);
  return { kind, sampled: objects.length, lost: [...counts].map(([path, n]) => ({ path, objects: n })) };
}

/** The report's sentence for a subject whose objects lost fields; undefined when none did. */
export function fieldLossVerdict(label: string, sample: FieldLossSample | undefined): string | undefined {
  if (!sample || sample.lost.length === 0) return undefined;
  const what = sample.lost.map((l) => `${l.path} on ${l.objects} of ${sample.sampled}`).join(', ');
  return `${label}: its ${sample.kind}s lose fields when stored (${what}; written in a version the CRD does not store, with no conversion): ${label}'s figures are void`;
}
