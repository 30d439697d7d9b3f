import type { ReadRef } from './object-ref.ts';

export type ActorMode = 'Standalone' | 'Binding';

/** A condition as the workflow decides it; the activity adds transition times and the generation. */
export interface ActorCondition {
  type: 'TransportReady' | 'WorkloadReady' | 'ScalingReady' | 'TargetResolved' | 'RuntimeInjected';
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** The little the workflow needs of an AsyncActor to choose its path; never the spec. */
export interface ActorAssessment {
  /** False: the actor is gone (or replaced by a new incarnation). */
  found: boolean;
  deleting?: boolean;
  /** When deletion was requested: the cleanup's deadline counts from it. */
  deletionTimestamp?: string;
  hasFinalizer?: boolean;
  generation?: number;
  resourceVersion?: string;
  mode?: ActorMode;
  /** The spec's validation message when it is invalid: nothing is created or injected. */
  invalid?: string;
  /** The pause annotation is set. */
  paused?: boolean;
}

/** The actor's queue and dead-letter queue on the broker (TransportReady). */
export interface QueueOutcome {
  ready: boolean;
  reason: string;
  message: string;
}

/** Standalone mode: the workload, its ScaledObject and what they report. */
export interface StandaloneOutcome {
  workload: string;
  replicas: number;
  readyReplicas: number;
  scaling: ActorCondition;
  changes: string[];
}

export interface TargetRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
}

/** Binding mode: the workload `workloadRef` leads to, and whether our containers are in it. */
export interface TargetResolution {
  resolved: boolean;
  /** Resolved; TargetNotReady (exists, but its workload not yet: a wait); ResolutionFailed (nothing to bind to). */
  reason: 'Resolved' | 'TargetNotReady' | 'ResolutionFailed';
  message: string;
  target?: TargetRef;
  /** `Kind/namespace/name` of the workload, as status shows it. */
  description?: string;
  /** Our runtime and sidecar are in its pod template now. */
  injected?: boolean;
  /** Another actor manages it, or it has a container of that name we did not put there. */
  refusal?: 'AlreadyManaged' | 'ContainerNameConflict';
  refusalMessage?: string;
  replicas?: number;
  readyReplicas?: number;
  /** Where the runtime forwards requests: `runtime.targetURL`, derived from `targetService`, or a ModelDeployment's endpoint. */
  targetURL?: string;
  /** What KEDA scales: the workload, or for a ModelDeployment the ModelDeployment itself (its /scale). */
  scaleTarget?: { apiVersion: string; kind: string; name: string };
}

/** What an injection needs, as resolved. */
export interface Binding {
  target: TargetRef;
  targetURL: string;
  scaleTarget: { apiVersion: string; kind: string; name: string };
}

export interface ActorStatusInput {
  mode: ActorMode | undefined;
  resolvedTarget?: string;
  runtimeInjected?: boolean;
  conflictCount: number;
  lastConflictTime?: string;
  replicas?: number;
  readyReplicas?: number;
  /** One word, as `kubectl get asya` shows it: Running, Napping, Creating, Binding, Conflict, Invalid, Terminating … */
  status: string;
  conditions: ActorCondition[];
}

export interface ReleaseOutcome {
  /** What could not be released yet (e.g. the queue while the broker is down). */
  remaining: string[];
  changes: string[];
}

/** AsyncActor side effects, run as local activities of its workflow. */
export interface AsyaActivities {
  /** Reads and validates the actor; adds its finalizer when it has none and is not being deleted. */
  assessAsyncActor(ref: ReadRef): Promise<ActorAssessment>;
  /** Declares `asya-<actor>` and its dead-letter queue on the broker (idempotent). */
  ensureActorQueues(ref: ReadRef): Promise<QueueOutcome>;
  /** Applies the standalone workload, the runtime ConfigMap and (with scaling) the ScaledObject. */
  applyStandalone(ref: ReadRef): Promise<StandaloneOutcome>;
  /** Follows `workloadRef` to the workload to inject into. */
  resolveActorTarget(ref: ReadRef): Promise<TargetResolution>;
  /** Injects runtime and sidecar by server-side apply (field manager `asya`) and applies the binding's ScaledObject. */
  injectRuntime(ref: ReadRef, binding: Binding): Promise<{ changes: string[]; scaling: ActorCondition }>;
  /** Writes status when it changed. */
  writeActorStatus(ref: ReadRef, status: ActorStatusInput): Promise<void>;
  /** Deletion: un-injects the bound target, deletes the ScaledObject and the queues. */
  releaseActor(ref: ReadRef, target: TargetRef | undefined): Promise<ReleaseOutcome>;
  removeActorFinalizer(ref: ReadRef): Promise<void>;
  recordActorEvent(ref: ReadRef, event: { type: 'Normal' | 'Warning'; reason: string; message: string }): Promise<void>;
}
