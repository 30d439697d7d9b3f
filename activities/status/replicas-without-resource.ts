// The replica counts a deployment shows once its provider resource is gone (deleted, or its CRD removed,
// which deletes every resource of the kind): none ready, none available, out of the desired count last
// reported. Left as they were, `kubectl get md` kept showing the last ready count beside a Pending phase.

/** The replica counts as status stores them (any may be absent). */
export interface StoredReplicas {
  desired?: number;
  ready?: number;
  available?: number;
}

/**
 * Counts for a deployment whose provider resource does not exist: 0 ready and available of the desired
 * count last shown. Undefined when status never showed counts (nothing stale to correct).
 */
export function replicasWithoutResource(shown: StoredReplicas | undefined): { desired: number; ready: 0; available: 0 } | undefined {
  if (!shown) return undefined;
  return { desired: shown.desired ?? 0, ready: 0, available: 0 };
}

/** Whether the shown counts claim ready or available replicas, which a missing resource cannot have. */
export function claimsReplicas(shown: StoredReplicas | undefined): boolean {
  return (shown?.ready ?? 0) > 0 || (shown?.available ?? 0) > 0;
}
