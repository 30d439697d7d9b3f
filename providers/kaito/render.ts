// ModelDeployment → KAITO Workspace (kaito.sh/v1beta1). A Workspace keeps `resource` and `inference`
// at the root of the object, not under `spec`. vLLM runs from a KAITO preset named by the model id,
// with engine parameters in a ConfigMap that `inference.config` points to; llama.cpp runs from a pod
// template with the user's image (seed 001 Example 2).

import type { ModelDeployment } from '../../api/types.ts';
import type { KubernetesObject, RenderContext, RenderResult } from '../contract.ts';
import { assertSupportedApiVersion } from '../shared/api-version.ts';
import { sortedMap } from '../shared/canonical.ts';
import { canonicalObject } from '../shared/rendered-object.ts';
import { engineOptions, toArgv, typedValue } from '../shared/engine-options.ts';
import { objectMeta } from '../shared/metadata.ts';
import { childName, providerResourceName, renamedWarning } from '../shared/names.ts';
import { resolveSpec } from '../shared/spec.ts';
import { cacheEnvSkippedWarning, modelCacheEnv, modelStorage, type ModelStorage } from '../shared/storage.ts';
import type { ResolvedSpec } from '../shared/spec.ts';
import { KAITO_RESOURCE } from './config.ts';
import {
  BASE_NODE_LABELS,
  INFERENCE_CONFIG_KEY,
  INFERENCE_CONFIG_SUFFIX,
  LLAMACPP_PORT,
  MAX_WORKSPACE_NAME,
  MODEL_CONTAINER_NAME,
  NVIDIA_GPU_PRESENT_LABEL,
} from './defaults.ts';
import { ggufModelUri } from './gguf.ts';

const NVIDIA_GPU = 'nvidia.com/gpu';

export function renderKaito(md: ModelDeployment, context: RenderContext): RenderResult {
  assertSupportedApiVersion(KAITO_RESOURCE, context.apiVersion);
  const spec = resolveSpec(md);
  const warnings: string[] = [];
  const extra: KubernetesObject[] = [];
  const name = providerResourceName(spec.name, MAX_WORKSPACE_NAME);
  if (name !== spec.name) warnings.push(renamedWarning(KAITO_RESOURCE.kind, spec.name, name, MAX_WORKSPACE_NAME));

  const storage = modelStorage(md);
  const inference =
    spec.engine === 'llamacpp' ? templateInference(spec, storage, warnings) : presetInference(spec, name, warnings, extra);

  const workspace = {
    apiVersion: context.apiVersion,
    kind: KAITO_RESOURCE.kind,
    metadata: objectMeta(spec, name),
    resource: {
      count: spec.replicas,
      labelSelector: { matchLabels: nodeLabels(spec) },
    },
    inference,
  };
  // Presets mount nothing (compatibility refuses storage there), so their claims would only sit unused.
  const claims = spec.engine === 'llamacpp' ? storage.claims : [];
  const objects = [workspace, ...extra, ...claims].map(canonicalObject);
  return { objects, warnings };
}

function nodeLabels(spec: ResolvedSpec): Record<string, string> {
  const labels: Record<string, string> = { ...BASE_NODE_LABELS };
  if (spec.gpu.count > 0 && spec.gpu.type === NVIDIA_GPU) labels[NVIDIA_GPU_PRESENT_LABEL] = 'true';
  Object.assign(labels, spec.nodeSelector);
  return sortedMap(labels) ?? {};
}

/** vLLM: KAITO preset; parameters go to the inference ConfigMap, the HF token by secret name. */
function presetInference(spec: ResolvedSpec, workspaceName: string, warnings: string[], extra: KubernetesObject[]): Record<string, unknown> {
  const { options, warnings: optionWarnings } = engineOptions(spec, 'vllm');
  warnings.push(...optionWarnings);
  if (spec.image !== undefined) warnings.push('spec.image is ignored for KAITO vLLM presets (KAITO manages the preset image)');
  if (spec.env.length > 0) warnings.push('spec.env is not applied to KAITO presets');
  if (Object.keys(spec.podLabels).length > 0 || Object.keys(spec.podAnnotations).length > 0) {
    warnings.push('spec.podTemplate.metadata is not applied to KAITO presets');
  }
  if (spec.tolerations.length > 0) warnings.push('spec.tolerations are not applied to KAITO presets');

  const inference: Record<string, unknown> = {
    preset: {
      name: spec.modelId ?? '',
      ...(spec.huggingFaceTokenSecret ? { presetOptions: { modelAccessSecret: spec.huggingFaceTokenSecret } } : {}),
    },
  };
  if (options.length > 0) {
    const name = childName(workspaceName, INFERENCE_CONFIG_SUFFIX);
    const vllm: Record<string, string | number | boolean> = {};
    for (const option of options) vllm[option.key] = typedValue(option.value);
    extra.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: objectMeta(spec, name),
      data: { [INFERENCE_CONFIG_KEY]: inferenceConfigYaml(vllm) },
    });
    inference.config = name;
  }
  return inference;
}

/**
 * llama.cpp: a pod template running the user's image, model loaded from HuggingFace by URI; storage
 * volumes in the template (KAITO keeps it as given), the model cache as the runner's download cache.
 */
function templateInference(spec: ResolvedSpec, storage: ModelStorage, warnings: string[]): Record<string, unknown> {
  const { options, warnings: optionWarnings } = engineOptions(spec, 'llamacpp', ['address']);
  warnings.push(...optionWarnings);

  const args: string[] = [];
  if (spec.source === 'huggingface' && spec.modelId !== undefined) args.push(ggufModelUri(spec.modelId));
  args.push(`--address=:${LLAMACPP_PORT}`, ...toArgv(options));

  const requests = sortedMap({ ...(spec.memory ? { memory: spec.memory } : {}), ...(spec.cpu ? { cpu: spec.cpu } : {}) });
  const limits = spec.gpu.count > 0 ? { [spec.gpu.type]: String(spec.gpu.count) } : undefined;
  const cacheEnv = modelCacheEnv(storage.modelCachePath, spec.engine, spec.env);
  warnings.push(...cacheEnv.skipped.map((n) => cacheEnvSkippedWarning(n, storage.modelCachePath!)));
  const env = [...cacheEnv.env, ...spec.env];
  const container = {
    name: MODEL_CONTAINER_NAME,
    image: spec.image ?? '',
    args,
    ports: [{ containerPort: LLAMACPP_PORT }],
    ...(requests || limits ? { resources: { ...(requests ? { requests } : {}), ...(limits ? { limits } : {}) } } : {}),
    ...(env.length > 0 ? { env } : {}),
    ...(spec.huggingFaceTokenSecret ? { envFrom: [{ secretRef: { name: spec.huggingFaceTokenSecret } }] } : {}),
    ...(storage.mounts.length > 0 ? { volumeMounts: storage.mounts } : {}),
  };
  const metadata = {
    ...(sortedMap(spec.podLabels) ? { labels: sortedMap(spec.podLabels) } : {}),
    ...(sortedMap(spec.podAnnotations) ? { annotations: sortedMap(spec.podAnnotations) } : {}),
  };
  return {
    template: {
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      spec: {
        containers: [container],
        ...(spec.tolerations.length > 0 ? { tolerations: spec.tolerations } : {}),
        ...(storage.volumes.length > 0 ? { volumes: storage.volumes } : {}),
      },
    },
  };
}

/**
 * The ConfigMap's YAML, written by hand so its bytes never depend on a YAML library's formatting:
 * keys sorted, every key and string in JSON quoting (valid YAML double-quoted scalars).
 */
export function inferenceConfigYaml(vllm: Readonly<Record<string, string | number | boolean>>): string {
  const lines = ['vllm:'];
  for (const key of Object.keys(vllm).sort()) lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(vllm[key])}`);
  return `${lines.join('\n')}\n`;
}
