import type { FlameClusterStatus } from '../api/flame/types.ts';
import type { ReadRef } from './object-ref.ts';

/** What one apply of a FlameCluster's children did: the little its workflow needs, never the spec. */
export interface FlameApplyOutcome {
  /** False: the object is gone (or replaced by a new incarnation); the workflow ends. */
  found: boolean;
  /** Being deleted: Kubernetes' garbage collector removes the children (they carry our ownerReference). */
  deleting?: boolean;
  /** The pause annotation (`kubeairunway.ai/reconcile-paused: "true"`) is set: nothing was changed. */
  paused?: boolean;
  /** What this read saw: the status report reads nothing older. */
  resourceVersion?: string;
  generation?: number;
  /** The spec's validation message when it is invalid: nothing was created. */
  invalid?: string;
  /** Bumped whenever the rendered flame-cluster.yaml changes (kept on the ConfigMap). */
  configGeneration?: number;
  /** What the apply changed, one line each, e.g. `created pod my-flame-executor-manager-3` (history detail). */
  changes: string[];
  /** Set while an old pod still terminates before its replacement can be created with the same name. */
  waitingFor?: string;
}

/** A FlameCluster's side effects, run as local activities of its workflow. */
export interface FlameActivities {
  /** Reads and validates the cluster, then applies its ConfigMap and Services and converges its pods. */
  applyFlameCluster(ref: ReadRef): Promise<FlameApplyOutcome>;
  /** Aggregates the pods into status (or reports the invalid spec) and writes it when it changed. */
  reportFlameStatus(ref: ReadRef, input: { invalid?: string; configGeneration?: number }): Promise<FlameClusterStatus>;
}
