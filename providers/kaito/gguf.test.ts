import { describe, expect, it } from 'vitest';
import { ggufModelUri } from './gguf.ts';

describe('ggufModelUri', () => {
  it('derives the file of seed Example 2', () => {
    expect(ggufModelUri('google/gemma-3-1b-it-qat-q8_0-gguf')).toBe(
      'huggingface://google/gemma-3-1b-it-qat-q8_0-gguf/gemma-3-1b-it-q8_0.gguf',
    );
  });
  it('uses a model id that already names the file as-is', () => {
    expect(ggufModelUri('TheBloke/Llama-2-7B-GGUF/llama-2-7b.Q4_K_M.gguf')).toBe('huggingface://TheBloke/Llama-2-7B-GGUF/llama-2-7b.Q4_K_M.gguf');
  });
  it('strips only a trailing -gguf and a whole -qat segment', () => {
    expect(ggufModelUri('org/qatar-model-GGUF')).toBe('huggingface://org/qatar-model-GGUF/qatar-model.gguf');
  });
});
