// ModelDeployment → DynamoGraphDeployment (nvidia.com/v1alpha1), seed 001 Examples 1 and 3: a Frontend
// (router) plus one worker service in aggregated mode, or prefill and decode worker services in
// disaggregated mode. Every service shares the Dynamo namespace (the graph's name: the ModelDeployment
// name, hash-shortened when the operator could not use it, see shared/names.ts) and gets the HuggingFace
// token by secret name (`envFromSecret`). Workers run one shell command line, built from the model, the
// engine options of seed §15 and the worker's role.

import { DEFAULT_GPU_TYPE } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import type { KubernetesObject, RenderContext, RenderResult } from '../contract.ts';
import { assertSupportedApiVersion } from '../shared/api-version.ts';
import { canonicalize, sortedMap } from '../shared/canonical.ts';
import { engineOptions, toArgv } from '../shared/engine-options.ts';
import { objectMeta } from '../shared/metadata.ts';
import { providerResourceName, renamedWarning } from '../shared/names.ts';
import { shellCommand } from '../shared/shell.ts';
import { resolveSpec } from '../shared/spec.ts';
import type { ResolvedComponent, ResolvedSpec } from '../shared/spec.ts';
import { DYNAMO_RESOURCE } from './config.ts';
import {
  DEFAULT_IMAGES,
  FRONTEND_SERVICE_KEY,
  MAX_GRAPH_NAME,
  RESERVED_ARGS,
  ROLE_FLAGS,
  WORKER_ENTRY,
  dynamoEngine,
  workerServiceKey,
} from './defaults.ts';
import type { DynamoEngine } from './defaults.ts';
import { frontendSettings } from './overrides.ts';

type Role = 'aggregated' | 'prefill' | 'decode';

export function renderDynamo(md: ModelDeployment, context: RenderContext): RenderResult {
  assertSupportedApiVersion(DYNAMO_RESOURCE, context.apiVersion);
  const spec = resolveSpec(md);
  const engine = dynamoEngine(spec.engine);
  const { options, warnings } = engineOptions(spec, engine, RESERVED_ARGS);
  const engineArgv = toArgv(options);
  const image = spec.image ?? DEFAULT_IMAGES[engine];
  const graphName = providerResourceName(spec.name, MAX_GRAPH_NAME);
  if (graphName !== spec.name) warnings.push(renamedWarning(DYNAMO_RESOURCE.kind, spec.name, graphName, MAX_GRAPH_NAME));

  const services: Record<string, unknown> = { [FRONTEND_SERVICE_KEY]: frontendService(spec, graphName, image) };
  if (spec.mode === 'disaggregated') {
    const noComponent: ResolvedComponent = { replicas: 1, gpu: { count: 0, type: DEFAULT_GPU_TYPE } };
    services[workerServiceKey(engine, 'prefill')] = workerService(spec, graphName, engine, image, engineArgv, 'prefill', spec.prefill ?? noComponent);
    services[workerServiceKey(engine, 'decode')] = workerService(spec, graphName, engine, image, engineArgv, 'decode', spec.decode ?? noComponent);
  } else {
    const component: ResolvedComponent = { replicas: spec.replicas, gpu: spec.gpu, memory: spec.memory, cpu: spec.cpu };
    services[workerServiceKey(engine, 'aggregated')] = workerService(spec, graphName, engine, image, engineArgv, 'aggregated', component);
  }

  const gpuTypes = spec.mode === 'disaggregated' ? [spec.prefill?.gpu.type, spec.decode?.gpu.type] : [spec.gpu.type];
  const foreign = [...new Set(gpuTypes.filter((t): t is string => t !== undefined && t !== DEFAULT_GPU_TYPE))].sort();
  if (foreign.length > 0) warnings.push(`Dynamo schedules NVIDIA GPUs; GPU type ${foreign.join(', ')} is treated as ${DEFAULT_GPU_TYPE}`);

  const graph = {
    apiVersion: context.apiVersion,
    kind: DYNAMO_RESOURCE.kind,
    metadata: objectMeta(spec, graphName),
    spec: { backendFramework: engine, services },
  };
  return { objects: [canonicalize(graph) as unknown as KubernetesObject], warnings };
}

function frontendService(spec: ResolvedSpec, graphName: string, image: string): Record<string, unknown> {
  const frontend = frontendSettings(spec.overrides);
  return {
    componentType: 'frontend',
    dynamoNamespace: graphName,
    replicas: frontend.replicas,
    'router-mode': frontend.routerMode,
    resources: { requests: { cpu: frontend.cpu, memory: frontend.memory } },
    ...commonServiceFields(spec),
    extraPodSpec: podSpec(spec, { image }),
  };
}

function workerService(
  spec: ResolvedSpec,
  graphName: string,
  engine: DynamoEngine,
  image: string,
  engineArgv: readonly string[],
  role: Role,
  component: ResolvedComponent,
): Record<string, unknown> {
  const entry = WORKER_ENTRY[engine];
  const words = ['python3', '-m', entry.module];
  if (spec.modelId !== undefined) words.push(entry.modelFlag, spec.modelId);
  words.push(...engineArgv);
  if (role !== 'aggregated') words.push(...ROLE_FLAGS[engine][role]);

  const limits = sortedMap({
    ...(component.gpu.count > 0 ? { gpu: String(component.gpu.count) } : {}),
    ...(component.memory ? { memory: component.memory } : {}),
    ...(component.cpu ? { cpu: component.cpu } : {}),
  });
  return {
    componentType: 'worker',
    ...(role !== 'aggregated' ? { subComponentType: role } : {}),
    dynamoNamespace: graphName,
    replicas: component.replicas,
    ...(limits ? { resources: { limits } } : {}),
    ...commonServiceFields(spec),
    extraPodSpec: podSpec(spec, { image, command: ['/bin/sh', '-c'], args: [shellCommand(words)] }),
  };
}

/** Secret reference and pod metadata shared by all services. */
function commonServiceFields(spec: ResolvedSpec): Record<string, unknown> {
  return {
    ...(spec.huggingFaceTokenSecret ? { envFromSecret: spec.huggingFaceTokenSecret } : {}),
    ...(sortedMap(spec.podLabels) ? { labels: sortedMap(spec.podLabels) } : {}),
    ...(sortedMap(spec.podAnnotations) ? { annotations: sortedMap(spec.podAnnotations) } : {}),
  };
}

function podSpec(spec: ResolvedSpec, container: Record<string, unknown>): Record<string, unknown> {
  return {
    mainContainer: { ...container, ...(spec.env.length > 0 ? { env: spec.env } : {}) },
    ...(sortedMap(spec.nodeSelector) ? { nodeSelector: sortedMap(spec.nodeSelector) } : {}),
    ...(spec.tolerations.length > 0 ? { tolerations: spec.tolerations } : {}),
  };
}
