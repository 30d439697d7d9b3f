// ModelDeployment → plain Kubernetes workloads (apps/v1 Deployment + v1 Service), one pair per serving
// role: `server` when aggregated; `prefill` and `decode` for vLLM's disaggregated serving, where each
// role scales and sizes on its own (spec.scaling.prefill / decode) and the KV cache moves between them
// over NIXL. The first object is the provider resource: the Deployment that serves the endpoint (the
// only one, or decode's). Objects are Deployments first, then Services, each in role order.

import type { ModelDeployment } from '../../api/types.ts';
import type { KubernetesObject, RenderContext, RenderResult } from '../contract.ts';
import { assertSupportedApiVersion } from '../shared/api-version.ts';
import { sortedMap } from '../shared/canonical.ts';
import { canonicalObject } from '../shared/rendered-object.ts';
import { objectMeta, ownedObjectSelector } from '../shared/metadata.ts';
import { providerResourceName, renamedWarning } from '../shared/names.ts';
import { resolveSpec, type ResolvedSpec } from '../shared/spec.ts';
import { DEPLOYMENT_RESOURCE } from './config.ts';
import { serverContainer, usesSharedMemory, type RoleResources } from './container.ts';
import { ENGINE_PORTS, MAX_BASE_NAME, PORT_NAME, PROGRESS_DEADLINE_MARGIN_SECONDS, ROLE_LABEL, type DeploymentEngine, type ServingRole } from './defaults.ts';
import { deploymentSettings, type DeploymentSettings } from './overrides.ts';
import { podTemplate } from './pod-template.ts';
import { cacheEnvSkippedWarning, modelCacheEnv, modelStorage, type ModelStorage } from '../shared/storage.ts';

interface Role {
  role: ServingRole;
  name: string;
  replicas: number;
  resources: RoleResources;
}

export function renderDeployment(md: ModelDeployment, context: RenderContext): RenderResult {
  assertSupportedApiVersion(DEPLOYMENT_RESOURCE, context.apiVersion);
  const spec = resolveSpec(md);
  const warnings: string[] = [];
  const base = providerResourceName(spec.name, MAX_BASE_NAME);
  if (base !== spec.name) warnings.push(renamedWarning(DEPLOYMENT_RESOURCE.kind, spec.name, base, MAX_BASE_NAME));
  const engine = deploymentEngine(spec);
  const settings = deploymentSettings(spec.overrides);
  if (settings.shmSize && !usesSharedMemory(engine)) warnings.push('spec.provider.overrides.shmSize is ignored for llama.cpp (no /dev/shm volume)');

  const storage = modelStorage(md);
  const cache = modelCacheEnv(storage.modelCachePath, spec.engine, spec.env);
  warnings.push(...cache.skipped.map((n) => cacheEnvSkippedWarning(n, storage.modelCachePath!)));
  const roles = servingRoles(spec, base);
  // Engine-option warnings are the same for every role: collected once.
  const deployments = roles.map((r, i) => deployment(spec, engine, r, settings, { ...storage, env: cache.env }, i === 0 ? warnings : []));
  const services = roles.map((r) => service(spec, engine, r));
  return { objects: [...[...deployments, ...services].map(canonicalObject), ...storage.claims], warnings };
}

/** Compatibility refuses any other engine; rendering still never throws, so it falls back to vLLM. */
export function deploymentEngine(spec: ResolvedSpec): DeploymentEngine {
  return spec.engine === 'sglang' || spec.engine === 'llamacpp' ? spec.engine : 'vllm';
}

/** The serving roles, the endpoint's first. */
export function servingRoles(spec: ResolvedSpec, base: string): Role[] {
  const own = (c: ResolvedSpec['prefill']): RoleResources => ({ gpu: c?.gpu ?? spec.gpu, memory: c?.memory ?? spec.memory, cpu: c?.cpu ?? spec.cpu });
  if (spec.mode !== 'disaggregated') return [{ role: 'server', name: base, replicas: spec.replicas, resources: own(undefined) }];
  return [
    { role: 'decode', name: `${base}-decode`, replicas: spec.decode?.replicas ?? 1, resources: own(spec.decode) },
    { role: 'prefill', name: `${base}-prefill`, replicas: spec.prefill?.replicas ?? 1, resources: own(spec.prefill) },
  ];
}

export function selector(spec: ResolvedSpec, role: ServingRole): Record<string, string> {
  return sortedMap({ ...ownedObjectSelector(spec.name), [ROLE_LABEL]: role }) ?? {};
}

function deployment(spec: ResolvedSpec, engine: DeploymentEngine, r: Role, settings: DeploymentSettings, storage: ModelStorage & { env: readonly unknown[] }, warnings: string[]): KubernetesObject {
  const container = serverContainer(spec, engine, r.role, r.resources, settings, warnings, storage);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: objectMeta(spec, r.name),
    spec: {
      replicas: r.replicas,
      selector: { matchLabels: selector(spec, r.role) },
      progressDeadlineSeconds: settings.startupTimeoutSeconds + PROGRESS_DEADLINE_MARGIN_SECONDS,
      template: podTemplate(spec, r.role, container, usesSharedMemory(engine), settings, storage.volumes),
    },
  };
}

/** A ClusterIP Service per role (seed 001 §4.14: ClusterIP only), on the engine's port. */
function service(spec: ResolvedSpec, engine: DeploymentEngine, r: Role): KubernetesObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: objectMeta(spec, r.name),
    spec: {
      type: 'ClusterIP',
      selector: selector(spec, r.role),
      ports: [{ name: PORT_NAME, port: ENGINE_PORTS[engine], targetPort: PORT_NAME, protocol: 'TCP' }],
    },
  };
}
