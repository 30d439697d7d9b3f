import { describe, expect, it } from 'vitest';
import { changedIdentityFields, identityOf } from './identity.ts';

describe('identity annotation', () => {
  const spec = { model: { id: 'Qwen/Qwen3-0.6B' }, engine: { type: 'vllm' as const }, resources: { gpu: { count: 1 } } };

  it('sees no change for config edits or written-out defaults', () => {
    const recorded = identityOf(spec);
    expect(changedIdentityFields(recorded, { ...spec, resources: { gpu: { count: 2 } } })).toEqual([]);
    expect(changedIdentityFields(recorded, { ...spec, model: { id: 'Qwen/Qwen3-0.6B', source: 'huggingface' } })).toEqual([]);
  });

  it('names each changed identity field', () => {
    const recorded = identityOf(spec);
    expect(changedIdentityFields(recorded, { ...spec, model: { id: 'Qwen/Qwen3-8B' }, engine: { type: 'sglang' } })).toEqual(['model.id', 'engine.type']);
    expect(changedIdentityFields(recorded, { ...spec, serving: { mode: 'disaggregated' } })).toEqual(['serving.mode']);
  });

  it('treats a resource without the annotation as unchanged', () => {
    expect(changedIdentityFields(undefined, spec)).toEqual([]);
  });
});
