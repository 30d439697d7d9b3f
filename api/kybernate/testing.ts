// Fixtures for Kybernate tests: the seed's three examples (seed 003 §3) made complete, as the API
// server would hand them out, and variations of them.

import { CHECKPOINT_KIND, KYBERNATE_API_VERSION, RESTORE_KIND, WORKLOAD_KIND } from './constants.ts';
import type { KybernateCheckpoint, KybernateRestore, KybernateWorkload } from './types.ts';
import { validateKybernateCheckpoint, validateKybernateRestore, validateKybernateWorkload } from './validate.ts';

type Json = Record<string, unknown>;

export const CHECKPOINT_UID = '3f1c2b4a-5d6e-4f70-8a9b-0c1d2e3f4a5b';
export const RESTORE_UID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
export const WORKLOAD_UID = 'c0ffee00-1234-4abc-9def-0123456789ab';

/** The seed's `my-gpu-checkpoint`: the `model` container of pod `gpu-inference`, with the CUDA plugin. */
export function checkpointSpec(): Json {
  return {
    podName: 'gpu-inference',
    containerName: 'model',
    leaveRunning: true,
    timeout: 300,
    storage: { type: 'containerd' },
    gpu: { enabled: true, pluginPath: '/usr/local/lib/criu' },
  };
}

/** The seed's `my-gpu-restore` of that checkpoint, onto gpu-node-2 with one GPU. */
export function restoreSpec(): Json {
  return {
    checkpointRef: 'my-gpu-checkpoint',
    targetPod: {
      name: 'gpu-inference-restored',
      nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-2' },
      resources: { limits: { 'nvidia.com/gpu': '1' } },
    },
    timeout: 600,
    gpu: { enabled: true },
  };
}

/** The seed's `llm-inference`: one GPU model container, suspended after 5 idle minutes. */
export function workloadSpec(): Json {
  return {
    template: {
      spec: {
        runtimeClassName: 'nvidia',
        containers: [{ name: 'model', image: 'my-llm:v1', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
      },
    },
    suspend: { enabled: true, idleTimeout: '5m', storage: { type: 'containerd' } },
    scaleToZero: { enabled: true, minReplicas: 0, maxReplicas: 5 },
    activator: { enabled: true, port: 8080, healthPath: '/health', queueTimeout: '30s' },
  };
}

export interface ObjectOverrides {
  name?: string;
  namespace?: string | null;
  uid?: string | null;
  generation?: number;
  status?: Json;
}

/** A Kybernate manifest of `kind` around a spec, as a plain object (what the API server or a YAML file holds). */
export function kybernateObject(kind: string, spec: unknown, overrides: ObjectOverrides = {}): Json {
  const defaults: Record<string, { name: string; uid: string }> = {
    [CHECKPOINT_KIND]: { name: 'my-gpu-checkpoint', uid: CHECKPOINT_UID },
    [RESTORE_KIND]: { name: 'my-gpu-restore', uid: RESTORE_UID },
    [WORKLOAD_KIND]: { name: 'llm-inference', uid: WORKLOAD_UID },
  };
  const namespace = overrides.namespace === undefined ? 'default' : overrides.namespace;
  const uid = overrides.uid === undefined ? defaults[kind]?.uid : overrides.uid;
  return {
    apiVersion: KYBERNATE_API_VERSION,
    kind,
    metadata: {
      name: overrides.name ?? defaults[kind]?.name ?? 'x',
      ...(namespace !== null ? { namespace } : {}),
      ...(uid ? { uid } : {}),
      generation: overrides.generation ?? 1,
    },
    spec,
    ...(overrides.status ? { status: overrides.status } : {}),
  };
}

/** Validated (defaulted) objects; they throw when the fixture is invalid, which is a bug in the test. */
export function checkpoint(change: (spec: Json) => void = () => {}, overrides: ObjectOverrides = {}): KybernateCheckpoint {
  const result = validateKybernateCheckpoint(kybernateObject(CHECKPOINT_KIND, changed(checkpointSpec, change), overrides));
  if (!result.valid) throw new Error(`invalid fixture: ${result.message}`);
  return result.checkpoint;
}

export function restore(change: (spec: Json) => void = () => {}, overrides: ObjectOverrides = {}): KybernateRestore {
  const result = validateKybernateRestore(kybernateObject(RESTORE_KIND, changed(restoreSpec, change), overrides));
  if (!result.valid) throw new Error(`invalid fixture: ${result.message}`);
  return result.restore;
}

export function workload(change: (spec: Json) => void = () => {}, overrides: ObjectOverrides = {}): KybernateWorkload {
  const result = validateKybernateWorkload(kybernateObject(WORKLOAD_KIND, changed(workloadSpec, change), overrides));
  if (!result.valid) throw new Error(`invalid fixture: ${result.message}`);
  return result.workload;
}

function changed(base: () => Json, change: (spec: Json) => void): Json {
  const spec = base();
  change(spec);
  return spec;
}
