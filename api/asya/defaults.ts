// The defaults of an AsyncActor: the CRD declares them (the API server fills them in before anything
// reads the object) and validateAsyncActor fills the same ones in offline, both from the schema
// (api/crd/async-actor-schema.ts) that states them. Plain values: the spec's types derive from that schema. Pure.

export const DEFAULT_TIMEOUT = { processing: 300, gracefulShutdown: 30 } as const;

export const DEFAULT_SCALING = {
  enabled: false,
  minReplicas: 0,
  maxReplicas: 50,
  pollingInterval: 10,
  cooldownPeriod: 60,
  queueLength: 5,
} as const;

export const DEFAULT_WORKLOAD = { kind: 'Deployment', replicas: 1, pythonExecutable: 'python3' } as const;

export const DEFAULT_RUNTIME = {
  image: 'asya-rest-adapter:latest',
  pythonExecutable: 'python3',
} as const;

export const DEFAULT_TARGET_PROTOCOL = 'http';

/**
 * The sidecar image when `spec.sidecar.image` is not set. A controller default rather than a CRD one:
 * the CRD default would be written into every stored object and pin it there across upgrades.
 */
export const DEFAULT_SIDECAR_IMAGE = 'asya-sidecar:latest';
