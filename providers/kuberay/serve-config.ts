// The Ray Serve application of a RayService (`spec.serveConfigV2`): Ray Serve LLM's OpenAI app, with
// the engine options of seed 001 §15 as vLLM engine kwargs. The text is JSON with sorted keys (JSON is
// YAML, which is what KubeRay parses), indented for `kubectl get -o yaml` readers; its bytes never
// depend on a YAML library's formatting.

import { canonicalize } from '../shared/canonical.ts';
import { engineOptions, typedValue } from '../shared/engine-options.ts';
import type { ResolvedComponent, ResolvedSpec } from '../shared/spec.ts';
import { AGGREGATED_IMPORT_PATH, DISAGGREGATED_IMPORT_PATH, KV_TRANSFER_CONFIG, SERVE_APP_NAME } from './defaults.ts';

export interface ServeConfig {
  text: string;
  warnings: string[];
}

export function serveConfig(spec: ResolvedSpec): ServeConfig {
  const { options, warnings } = engineOptions(spec, 'vllm', ['model']);
  const kwargs: Record<string, string | number | boolean> = {};
  // The served name is the LLM config's model_id, not an engine flag.
  for (const option of options) if (option.origin !== 'servedName') kwargs[option.key.replace(/-/g, '_')] = typedValue(option.value);

  const app =
    spec.mode === 'disaggregated'
      ? {
          name: SERVE_APP_NAME,
          route_prefix: '/',
          import_path: DISAGGREGATED_IMPORT_PATH,
          args: {
            prefill_config: llmConfig(spec, kwargs, spec.prefill, true),
            decode_config: llmConfig(spec, kwargs, spec.decode, true),
          },
        }
      : {
          name: SERVE_APP_NAME,
          route_prefix: '/',
          import_path: AGGREGATED_IMPORT_PATH,
          args: { llm_configs: [llmConfig(spec, kwargs, { replicas: spec.replicas, gpu: spec.gpu }, false)] },
        };
  return { text: `${JSON.stringify(canonicalize({ applications: [app] }), null, 2)}\n`, warnings };
}

function llmConfig(
  spec: ResolvedSpec,
  kwargs: Readonly<Record<string, string | number | boolean>>,
  component: Pick<ResolvedComponent, 'replicas' | 'gpu'> | undefined,
  disaggregated: boolean,
): Record<string, unknown> {
  const replicas = component?.replicas ?? 1;
  const gpus = component?.gpu.count ?? 0;
  const engineKwargs: Record<string, unknown> = { ...kwargs };
  // One Serve replica uses all GPUs of its worker pod; an explicit engine.args value wins.
  if (gpus > 1 && engineKwargs.tensor_parallel_size === undefined) engineKwargs.tensor_parallel_size = gpus;
  if (disaggregated) engineKwargs.kv_transfer_config = KV_TRANSFER_CONFIG;
  return {
    model_loading_config: {
      model_id: spec.servedName ?? spec.modelId ?? spec.name,
      ...(spec.modelId !== undefined ? { model_source: spec.modelId } : {}),
    },
    engine_kwargs: engineKwargs,
    deployment_config: { autoscaling_config: { min_replicas: replicas, max_replicas: replicas } },
  };
}
