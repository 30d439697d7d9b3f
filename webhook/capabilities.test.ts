import { describe, expect, it } from 'vitest';
import type { InferenceProviderConfig, ProviderCapabilities } from '../api/types.ts';
import { capabilityWarnings } from './capabilities.ts';

function ipc(name: string, capabilities?: ProviderCapabilities): InferenceProviderConfig {
  return { metadata: { name }, spec: capabilities ? { capabilities } : {} };
}

// Capabilities as the seed's §4.5 matrix gives them for the built-in providers.
const kaito = ipc('kaito', { engines: ['vllm', 'llamacpp'], servingModes: ['aggregated'], cpuSupport: true, gpuSupport: true });
const dynamo = ipc('dynamo', { engines: ['vllm', 'sglang', 'trtllm'], servingModes: ['aggregated', 'disaggregated'], cpuSupport: false, gpuSupport: true });
const all = [kaito, dynamo];

const gpu = { resources: { gpu: { count: 1 } } };
const cpu = { resources: { gpu: { count: 0 } } };

describe('capabilityWarnings: a named provider (seed provider-compatibility table, from IPC data)', () => {
  it.each([
    ['sglang on kaito', { engine: { type: 'sglang' }, ...gpu }, 'kaito', ["Provider 'kaito' does not support sglang engine"]],
    ['trtllm on kaito', { engine: { type: 'trtllm' }, ...gpu }, 'kaito', ["Provider 'kaito' does not support trtllm engine"]],
    ['llamacpp on dynamo', { engine: { type: 'llamacpp' }, ...gpu }, 'dynamo', ["Provider 'dynamo' does not support llamacpp engine"]],
    ['no GPU on dynamo', { engine: { type: 'vllm' }, ...cpu }, 'dynamo', ["Provider 'dynamo' requires GPU (set resources.gpu.count > 0)"]],
    [
      'disaggregated on kaito',
      { engine: { type: 'vllm' }, serving: { mode: 'disaggregated' }, scaling: { prefill: { gpu: { count: 1 } }, decode: { gpu: { count: 1 } } } },
      'kaito',
      ["Provider 'kaito' does not support disaggregated mode"],
    ],
    ['a fit', { engine: { type: 'vllm' }, ...gpu }, 'kaito', []],
  ])('%s', (_name, spec, provider, expected) => {
    expect(capabilityWarnings(spec, provider, all)).toEqual(expected);
  });

  it('a GPU request to a CPU-only provider', () => {
    const cpuOnly = ipc('cpu-only', { engines: ['llamacpp'], servingModes: ['aggregated'], cpuSupport: true });
    expect(capabilityWarnings({ engine: { type: 'llamacpp' }, ...gpu }, 'cpu-only', [cpuOnly])).toEqual(["Provider 'cpu-only' does not support GPU inference"]);
  });

  it('missing capabilities support nothing, as in selection', () => {
    expect(capabilityWarnings({ engine: { type: 'vllm' }, ...gpu }, 'bare', [ipc('bare')])).toEqual([
      "Provider 'bare' does not support vllm engine",
      "Provider 'bare' does not support aggregated mode",
      "Provider 'bare' does not support GPU inference",
    ]);
  });

  it('a provider without InferenceProviderConfig: nothing here (validation reports it)', () => {
    expect(capabilityWarnings({ engine: { type: 'vllm' }, ...gpu }, 'kuberay', all)).toEqual([]);
  });

  it('no engine: no guess', () => {
    expect(capabilityWarnings({ ...gpu }, 'kaito', all)).toEqual([]);
  });
});

describe('capabilityWarnings: auto-selection', () => {
  it('warns when no provider could ever be selected', () => {
    expect(capabilityWarnings({ engine: { type: 'llamacpp' }, ...gpu, serving: { mode: 'disaggregated' } }, undefined, all)).toEqual([
      'No compatible provider found for engine=llamacpp, gpu=false, mode=disaggregated',
    ]);
  });

  it('is quiet when one fits, or when no provider is registered yet', () => {
    expect(capabilityWarnings({ engine: { type: 'sglang' }, ...gpu }, undefined, all)).toEqual([]);
    expect(capabilityWarnings({ engine: { type: 'sglang' }, ...gpu }, undefined, [])).toEqual([]);
  });
});
