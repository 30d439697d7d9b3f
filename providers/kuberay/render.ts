// ModelDeployment → RayService (ray.io/v1): a Ray cluster with a CPU head and GPU worker groups (one
// group in aggregated mode; prefill and decode groups in disaggregated mode, seed 001 §3.13), running
// the Ray Serve LLM application of serve-config.ts. Each Serve replica runs on one worker pod, so a
// worker group has exactly as many pods as its replicas (no autoscaling, seed §12).

import type { EnvVar, ModelDeployment } from '../../api/types.ts';
import type { RenderContext, RenderResult } from '../contract.ts';
import { assertSupportedApiVersion } from '../shared/api-version.ts';
import { sortedMap } from '../shared/canonical.ts';
import { canonicalObject } from '../shared/rendered-object.ts';
import { objectMeta } from '../shared/metadata.ts';
import { providerResourceName, renamedWarning } from '../shared/names.ts';
import { resolveSpec } from '../shared/spec.ts';
import { cacheEnvSkippedWarning, modelCacheEnv, modelStorage, type ModelStorage } from '../shared/storage.ts';
import type { ResolvedComponent, ResolvedSpec } from '../shared/spec.ts';
import { KUBERAY_RESOURCE } from './config.ts';
import {
  DEFAULT_IMAGE,
  HEAD_CONTAINER_NAME,
  HEAD_PORTS,
  MAX_RAYSERVICE_NAME,
  RAY_VERSION,
  WORKER_CONTAINER_NAME,
  WORKER_DEFAULTS,
} from './defaults.ts';
import { headSettings } from './overrides.ts';
import { serveConfig } from './serve-config.ts';

export function renderKuberay(md: ModelDeployment, context: RenderContext): RenderResult {
  assertSupportedApiVersion(KUBERAY_RESOURCE, context.apiVersion);
  const spec = resolveSpec(md);
  const serve = serveConfig(spec);
  const storage = modelStorage(md);
  const pods = podStorage(spec, storage);
  const image = spec.image ?? DEFAULT_IMAGE;
  const name = providerResourceName(spec.name, MAX_RAYSERVICE_NAME);
  const warnings = [...serve.warnings, ...pods.warnings];
  if (name !== spec.name) warnings.push(renamedWarning(KUBERAY_RESOURCE.kind, spec.name, name, MAX_RAYSERVICE_NAME));

  const groups: Array<[string, ResolvedComponent]> =
    spec.mode === 'disaggregated'
      ? [
          ['prefill-workers', spec.prefill ?? { replicas: 1, gpu: spec.gpu }],
          ['decode-workers', spec.decode ?? { replicas: 1, gpu: spec.gpu }],
        ]
      : [['gpu-workers', { replicas: spec.replicas, gpu: spec.gpu, memory: spec.memory, cpu: spec.cpu }]];

  const service = {
    apiVersion: context.apiVersion,
    kind: KUBERAY_RESOURCE.kind,
    metadata: objectMeta(spec, name),
    spec: {
      serveConfigV2: serve.text,
      rayClusterConfig: {
        rayVersion: RAY_VERSION,
        headGroupSpec: headGroup(spec, pods, image),
        workerGroupSpecs: groups.map(([groupName, component]) => workerGroup(spec, pods, image, groupName, component)),
      },
    },
  };
  return { objects: [canonicalObject(service), ...storage.claims], warnings };
}

/** What every Ray pod gets of spec.model.storage: its volumes and mounts, and the engine's cache env before the user's env. */
interface PodStorage {
  storage: ModelStorage;
  env: EnvVar[];
  warnings: string[];
}

/**
 * Head and workers alike mount the storage and see the cache env: Ray decides where its processes run
 * (the Serve controller and ingress on the head, the vLLM engines on the workers), and any of them may
 * read the model's files or the HuggingFace cache.
 */
function podStorage(spec: ResolvedSpec, storage: ModelStorage): PodStorage {
  const cache = modelCacheEnv(storage.modelCachePath, spec.engine, spec.env);
  return { storage, env: [...cache.env, ...spec.env], warnings: cache.skipped.map((n) => cacheEnvSkippedWarning(n, storage.modelCachePath!)) };
}

function headGroup(spec: ResolvedSpec, pods: PodStorage, image: string): Record<string, unknown> {
  const head = headSettings(spec.overrides);
  const resources = { cpu: head.cpu, memory: head.memory };
  return {
    rayStartParams: sortedMap(head.rayStartParams) ?? {},
    template: podTemplate(spec, pods, {
      name: HEAD_CONTAINER_NAME,
      image,
      ports: HEAD_PORTS,
      resources: { requests: resources, limits: resources },
    }),
  };
}

function workerGroup(spec: ResolvedSpec, pods: PodStorage, image: string, groupName: string, component: ResolvedComponent): Record<string, unknown> {
  const requests = { memory: component.memory ?? WORKER_DEFAULTS.memory, ...(component.cpu ? { cpu: component.cpu } : {}) };
  const limits = { ...requests, ...(component.gpu.count > 0 ? { [component.gpu.type]: String(component.gpu.count) } : {}) };
  return {
    groupName,
    replicas: component.replicas,
    minReplicas: component.replicas,
    maxReplicas: component.replicas,
    rayStartParams: {},
    template: podTemplate(spec, pods, { name: WORKER_CONTAINER_NAME, image, resources: { requests, limits } }),
  };
}

/** Pod template with the deployment's pod metadata, env, HF token reference, storage and scheduling constraints. */
function podTemplate(spec: ResolvedSpec, pods: PodStorage, container: Record<string, unknown>): Record<string, unknown> {
  const { storage, env } = pods;
  const metadata = {
    ...(sortedMap(spec.podLabels) ? { labels: sortedMap(spec.podLabels) } : {}),
    ...(sortedMap(spec.podAnnotations) ? { annotations: sortedMap(spec.podAnnotations) } : {}),
  };
  return {
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    spec: {
      containers: [
        {
          ...container,
          ...(env.length > 0 ? { env } : {}),
          ...(spec.huggingFaceTokenSecret ? { envFrom: [{ secretRef: { name: spec.huggingFaceTokenSecret } }] } : {}),
          ...(storage.mounts.length > 0 ? { volumeMounts: storage.mounts } : {}),
        },
      ],
      ...(sortedMap(spec.nodeSelector) ? { nodeSelector: sortedMap(spec.nodeSelector) } : {}),
      ...(spec.tolerations.length > 0 ? { tolerations: spec.tolerations } : {}),
      ...(storage.volumes.length > 0 ? { volumes: storage.volumes } : {}),
    },
  };
}
