// The AsyncActor resource (seed 002, research "Asya" 1a): a queue consumer whose `asya-sidecar` reads
// messages from RabbitMQ or SQS and hands them over a Unix socket to the `asya-runtime` container.
// Standalone mode creates the workload from `workload`; binding mode injects the two containers into
// an existing one named by `workloadRef`. Types only; api/asya/validate.ts turns an unknown object into
// one of these, with the CRD's defaults filled in.

import type { ObjectMetadata, Quantity, ResourceRequirements } from '../common/checks.ts';
import type { CheckedObject } from '../common/object-validator.ts';
import type { asyncActorSpecSchema, asyncActorStatusSchema } from '../crd/async-actor-schema.ts';
import type { Static } from '../schema/typed.ts';

/** The spec, as declared once in its schema (api/crd/async-actor-schema.ts), with the CRD's defaults filled in. */
export type AsyncActorSpec = Static<typeof asyncActorSpecSchema>;
export type Transport = AsyncActorSpec['transport'];
export type SidecarSpec = NonNullable<AsyncActorSpec['sidecar']>;
export type EnvVar = NonNullable<SidecarSpec['env']>[number];
export type PullPolicy = NonNullable<SidecarSpec['imagePullPolicy']>;
export type TimeoutSpec = AsyncActorSpec['timeout'];
export type ScalingSpec = AsyncActorSpec['scaling'];
export type WorkloadSpec = NonNullable<AsyncActorSpec['workload']>;
export type WorkloadKind = WorkloadSpec['kind'];
export type WorkloadRef = NonNullable<AsyncActorSpec['workloadRef']>;
export type WorkloadRefKind = WorkloadRef['kind'];
export type RuntimeSpec = NonNullable<AsyncActorSpec['runtime']>;
export type TargetService = NonNullable<RuntimeSpec['targetService']>;

export type { Quantity, ResourceRequirements };

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

/** The status, as its schema declares it; `status` holds an ActorStatusValue or an error summary, `conditions` a ConditionType each. */
export type AsyncActorStatus = Static<typeof asyncActorStatusSchema>;

export type AsyncActorMetadata = ObjectMetadata;

export type AsyncActor = CheckedObject<AsyncActorSpec, AsyncActorStatus>;
