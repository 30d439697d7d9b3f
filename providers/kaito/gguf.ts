// The llama.cpp runner KAITO uses loads `huggingface://<org>/<repo>/<file>.gguf`. A model id that
// already names the file is used as-is. Otherwise the file name follows the convention of GGUF
// repositories such as Google's QAT ones (seed 001 Example 2): the repository name without its
// `-gguf` suffix and without the `-qat` marker, e.g. `google/gemma-3-1b-it-qat-q8_0-gguf` →
// `gemma-3-1b-it-q8_0.gguf`. For repositories named differently, put the file in model.id.

import { defaultServedName } from '../shared/spec.ts';

export function ggufModelUri(modelId: string): string {
  if (/\.gguf$/i.test(modelId)) return `huggingface://${modelId}`;
  const repository = defaultServedName(modelId);
  const file = repository.replace(/-gguf$/i, '').replace(/-qat(?=-|$)/i, '');
  return `huggingface://${modelId}/${file}.gguf`;
}
