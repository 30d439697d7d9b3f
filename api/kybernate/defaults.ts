// The defaults of the Kybernate kinds (seed 003 §3): the CRDs declare them (the API server fills them in
// before anything reads the object) and the validators fill the same ones in offline, both from the
// schemas (api/crd/kybernate-*-schema.ts) that state them. Plain values: the spec types derive from
// those schemas. Pure (no imports).
//
// `containerName` has no default here: "the pod's first container" is only known once the pod is read.

export const DEFAULT_LEAVE_RUNNING = true;
/** Seconds a checkpoint may take. */
export const DEFAULT_CHECKPOINT_TIMEOUT = 300;
/** Seconds a restore may take, until its pod runs. */
export const DEFAULT_RESTORE_TIMEOUT = 600;
export const DEFAULT_STORAGE_TYPE = 'containerd';
export const DEFAULT_GPU_ENABLED = false;

export const DEFAULT_SUSPEND_ENABLED = true;
export const DEFAULT_IDLE_TIMEOUT = '5m';

export const DEFAULT_SCALE_TO_ZERO = { enabled: false, minReplicas: 0, maxReplicas: 5 } as const;

export const DEFAULT_ACTIVATOR = { enabled: true, port: 8080, healthPath: '/health', queueTimeout: '30s' } as const;
