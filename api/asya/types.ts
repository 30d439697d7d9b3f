// The AsyncActor resource (seed 002, research "Asya" 1a): a queue consumer whose `asya-sidecar` reads
// messages from RabbitMQ or SQS and hands them over a Unix socket to the `asya-runtime` container.
// Standalone mode creates the workload from `workload`; binding mode injects the two containers into
// an existing one named by `workloadRef`. Types only; api/asya/validate.ts turns an unknown object into
// one of these, with the CRD's defaults filled in.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';
import type { Condition } from '../common/status-reader.ts';
import type { Mode } from './constants.ts';

export type Transport = 'rabbitmq' | 'sqs';

/** A Kubernetes quantity ("500m", "1Gi", or a plain number) and a container's requests/limits, passed to the pod as given. */
export type { Quantity, ResourceRequirements };

/** A container environment variable; `valueFrom` is passed to the pod unchanged. */
export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: Record<string, unknown>;
}

export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

export interface SidecarSpec {
  /** The sidecar image; the controller's default (asya-sidecar:latest) when omitted. */
  image?: string;
  imagePullPolicy?: PullPolicy;
  resources?: ResourceRequirements;
  /** Added after the environment the controller sets. */
  env?: EnvVar[];
}

export interface TimeoutSpec {
  /** Seconds one message may take (the sidecar's ASYA_RUNTIME_TIMEOUT); 300 by default. */
  processing: number;
  /** The pods' terminationGracePeriodSeconds; 30 by default. */
  gracefulShutdown: number;
}

export interface ScalingSpec {
  /** Whether a KEDA ScaledObject scales the workload on queue depth; false by default. */
  enabled: boolean;
  minReplicas: number;
  maxReplicas: number;
  /** Seconds between KEDA's queue checks. */
  pollingInterval: number;
  /** Seconds after the last message before KEDA scales to minReplicas. */
  cooldownPeriod: number;
  /** Target queued messages per replica. */
  queueLength: number;
}

export type WorkloadKind = 'Deployment' | 'StatefulSet';

export interface WorkloadSpec {
  kind: WorkloadKind;
  /** Replicas when scaling is disabled (KEDA owns the count otherwise). */
  replicas: number;
  /** Runs the runtime script: `<pythonExecutable> /opt/asya/asya_runtime.py`. */
  pythonExecutable: string;
  /** A pod template (metadata, spec) holding the user's `asya-runtime` container, kept as given. */
  template: Record<string, unknown>;
}

export type WorkloadRefKind = 'Deployment' | 'StatefulSet' | 'Workspace' | 'ModelDeployment';

export interface WorkloadRef {
  apiVersion: string;
  kind: WorkloadRefKind;
  name: string;
  /** Only the actor's own namespace is accepted; absent means that namespace. */
  namespace?: string;
}

export interface TargetService {
  name: string;
  port: number;
  /** The actor's namespace when omitted. */
  namespace?: string;
  protocol: 'http' | 'https';
  /** Appended to the URL as is, e.g. "/v1/chat/completions". */
  path?: string;
}

/** Binding mode: the runtime container added to the foreign workload, an adapter to its server. */
export interface RuntimeSpec {
  targetURL?: string;
  targetService?: TargetService;
  image: string;
  /** ASYA_HANDLER, e.g. "adapters.kaito_openai.forward". */
  handler: string;
  env?: EnvVar[];
  resources?: ResourceRequirements;
  pythonExecutable: string;
}

export interface AsyncActorSpec {
  transport: Transport;
  sidecar?: SidecarSpec;
  timeout: TimeoutSpec;
  scaling: ScalingSpec;
  /** Standalone mode. Exactly one of `workload` and `workloadRef` is set. */
  workload?: WorkloadSpec;
  /** Binding mode. */
  workloadRef?: WorkloadRef;
  /** Required with `workloadRef`, forbidden with `workload`. */
  runtime?: RuntimeSpec;
}

export type ConditionType = 'TargetResolved' | 'RuntimeInjected' | 'ScalingReady' | 'TransportReady' | 'WorkloadReady';

/** Conditions of the AsyncActor; `type` is one of ConditionType. */
export type { Condition } from '../common/status-reader.ts';

/** Upstream's summary values (research 1a). */
export type ActorStatusValue =
  | 'Running'
  | 'Napping'
  | 'Degraded'
  | 'Creating'
  | 'ScalingUp'
  | 'ScalingDown'
  | 'Updating'
  | 'Terminating'
  | 'TransportError'
  | 'ScalingError'
  | 'WorkloadError'
  | 'PendingResources'
  | 'ImagePullError'
  | 'RuntimeError'
  | 'SidecarError'
  | 'VolumeError'
  | 'ConfigError';

export interface AsyncActorStatus {
  mode?: Mode;
  /** The workload that runs the actor, `Kind/namespace/name` (formatTarget). */
  resolvedTarget?: string;
  runtimeInjected?: boolean;
  conflictCount?: number;
  lastConflictTime?: string;
  replicas?: number;
  readyReplicas?: number;
  desiredReplicas?: number;
  totalReplicas?: number;
  pendingReplicas?: number;
  failingPods?: number;
  status?: ActorStatusValue | string;
  conditions?: Condition[];
  observedGeneration?: number;
}

export type AsyncActorMetadata = ObjectMetadata;

export interface AsyncActor {
  apiVersion: string;
  kind: string;
  metadata: AsyncActorMetadata;
  spec: AsyncActorSpec;
  status?: AsyncActorStatus;
}
