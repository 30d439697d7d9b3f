// Where each engine gets the model from, as command-line arguments.
//
// Accepted model.id forms:
// - a local path: `/models/tiny.gguf`, or the same as `file:///models/tiny.gguf` (a volume or the image
//   holds it). Required when model.source is `custom` (the model is in the image).
// - a Hugging Face repository (model.source huggingface, the default), downloaded by the server:
//   vLLM and SGLang take the id as is (`org/model`); llama.cpp takes `--hf-repo org/repo` (llama-server
//   picks the repository's default GGUF; `org/repo:Q4_K_M` picks a quantization), or with a file
//   named, `org/repo/file.gguf` → `--hf-repo org/repo --hf-file file.gguf`.

import type { ResolvedSpec } from '../shared/spec.ts';
import type { DeploymentEngine } from './defaults.ts';

const FILE_SCHEME = 'file://';

/** The local path model.id names, or undefined when it names a Hugging Face repository. */
export function localModelPath(modelId: string | undefined): string | undefined {
  if (modelId === undefined) return undefined;
  if (modelId.startsWith(FILE_SCHEME)) return modelId.slice(FILE_SCHEME.length) || undefined;
  return modelId.startsWith('/') ? modelId : undefined;
}

/** Why the model cannot be found at all, or undefined when it can (compatibility error text). */
export function modelSourceProblem(spec: ResolvedSpec): string | undefined {
  if (spec.source !== 'custom') return undefined;
  if (localModelPath(spec.modelId) !== undefined) return undefined;
  return "Kubernetes Deployment needs model.id to be the model's path inside the image (e.g. /models/model.gguf) when model.source is custom";
}

/** The arguments that point the engine at its model. */
export function modelArgs(spec: ResolvedSpec, engine: DeploymentEngine): string[] {
  const id = spec.modelId ?? '';
  const local = localModelPath(spec.modelId);
  switch (engine) {
    case 'vllm':
      return [local ?? id];
    case 'sglang':
      return ['--model-path', local ?? id];
    case 'llamacpp':
      return local !== undefined ? ['--model', local] : huggingFaceGguf(id);
  }
}

function huggingFaceGguf(id: string): string[] {
  const parts = id.split('/').filter((p) => p.length > 0);
  if (parts.length >= 3 && /\.gguf$/i.test(id)) return ['--hf-repo', parts.slice(0, 2).join('/'), '--hf-file', parts.slice(2).join('/')];
  return ['--hf-repo', id];
}
