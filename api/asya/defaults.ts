// The defaults of an AsyncActor: the CRD declares them (the API server fills them in before anything
// reads the object) and validateAsyncActor fills the same ones in offline. Pure (no imports but types).

import type { RuntimeSpec, ScalingSpec, TargetService, TimeoutSpec, WorkloadSpec } from './types.ts';

export const DEFAULT_TIMEOUT: Readonly<TimeoutSpec> = { processing: 300, gracefulShutdown: 30 };

export const DEFAULT_SCALING: Readonly<ScalingSpec> = {
  enabled: false,
  minReplicas: 0,
  maxReplicas: 50,
  pollingInterval: 10,
  cooldownPeriod: 60,
  queueLength: 5,
};

export const DEFAULT_WORKLOAD: Readonly<Omit<WorkloadSpec, 'template'>> = { kind: 'Deployment', replicas: 1, pythonExecutable: 'python3' };

export const DEFAULT_RUNTIME: Readonly<Pick<RuntimeSpec, 'image' | 'pythonExecutable'>> = {
  image: 'asya-rest-adapter:latest',
  pythonExecutable: 'python3',
};

export const DEFAULT_TARGET_PROTOCOL: TargetService['protocol'] = 'http';

/**
 * The sidecar image when `spec.sidecar.image` is not set. A controller default rather than a CRD one:
 * the CRD default would be written into every stored object and pin it there across upgrades.
 */
export const DEFAULT_SIDECAR_IMAGE = 'asya-sidecar:latest';
