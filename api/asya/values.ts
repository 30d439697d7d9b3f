// The allowed values of the AsyncActor's enumerated fields, shared by the CRD schema and validateAsyncActor.

import type { Mode } from './constants.ts';

export const TRANSPORTS = ['rabbitmq', 'sqs'] as const;
export const WORKLOAD_KINDS = ['Deployment', 'StatefulSet'] as const;
export const WORKLOAD_REF_KINDS = ['Deployment', 'StatefulSet', 'Workspace', 'ModelDeployment'] as const;
export const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
export const TARGET_PROTOCOLS = ['http', 'https'] as const;
/** status.mode: which of workload and workloadRef the actor runs with. */
export const MODES: readonly Mode[] = ['Standalone', 'Binding'];
