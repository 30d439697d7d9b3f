// The pure half of a kind's status write (activities/kind/kind-client.ts does the I/O): the status to
// write, whether the live object already says it, and the document server-side apply takes.
import type { Condition } from '../../api/types.ts';
import type { ReadRef } from '../../contract/object-ref.ts';
import type { AnyObject } from '../../kube/custom-objects.ts';
import { jsonEqual } from '../../api/json-equal.ts';
import { withTransitionTimes, type DesiredCondition } from '../status/conditions.ts';

/** The API identity of a kind: where its objects live and what its documents say they are. */
export interface KindIdentity {
  group: string;
  version: string;
  plural: string;
  kind: string;
}

/**
 * How the live status is compared with the one to write:
 * - `exact`: the controller writes the whole status (nothing else does), so any difference is a write;
 * - `fields`: only the fields given are compared (others, e.g. another manager's, are left out).
 */
export type StatusComparison = 'exact' | 'fields';

export function statusUnchanged(current: object | undefined, next: object, comparison: StatusComparison): boolean {
  const live = current ?? {};
  return comparison === 'exact' ? jsonEqual(live, next) : jsonEqual(live, { ...live, ...next });
}

/**
 * A status with conditions: each condition keeps its lastTransitionTime while its status stays (see
 * withTransitionTimes), and the whole says which generation it describes.
 */
export function conditionedStatus<F extends object>(
  live: { metadata: { generation?: number }; status?: { conditions?: readonly Condition[] } },
  fields: F,
  conditions: readonly DesiredCondition[],
  now: string,
): F & { conditions: Condition[]; observedGeneration: number } {
  const generation = live.metadata.generation ?? 0;
  return { ...fields, conditions: withTransitionTimes(live.status?.conditions, conditions, now, generation), observedGeneration: generation };
}

/** What a status apply sends: the object's identity (its uid, so a replaced object is not written) and the status. */
export function statusDocument(kind: KindIdentity, ref: ReadRef, status: object): AnyObject {
  return { apiVersion: apiVersionOf(kind), kind: kind.kind, metadata: { name: ref.name, namespace: ref.namespace, uid: ref.uid }, status };
}

export function apiVersionOf(kind: Pick<KindIdentity, 'group' | 'version'>): string {
  return kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
}
