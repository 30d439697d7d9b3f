import { describe, expect, it } from 'vitest';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { modelDeployment } from '../testing/fixtures.ts';
import { engineOptions, toArgv, typedValue } from './engine-options.ts';
import { resolveSpec } from './spec.ts';

const resolved = (engine: ModelDeploymentSpec['engine'], model: ModelDeploymentSpec['model'] = { id: 'org/model' }) =>
  resolveSpec(modelDeployment('m', { model, engine }));

describe('engine options (seed 001 §15)', () => {
  it('context length maps to each engine flag; TensorRT-LLM ignores it with a warning', () => {
    const flag = (type: 'vllm' | 'sglang' | 'llamacpp' | 'trtllm') => engineOptions(resolved({ type, contextLength: 4096 }), type);
    expect(toArgv(flag('vllm').options)).toEqual(['--max-model-len', '4096']);
    expect(toArgv(flag('sglang').options)).toEqual(['--context-length', '4096']);
    expect(toArgv(flag('llamacpp').options)).toEqual(['--ctx-size', '4096']);
    expect(flag('trtllm')).toEqual({
      options: [],
      warnings: ['engine.contextLength is ignored for TensorRT-LLM (context length is fixed when the engine is built)'],
    });
  });

  it('trust remote code: a flag for vLLM and SGLang, ignored with a warning elsewhere', () => {
    expect(toArgv(engineOptions(resolved({ type: 'vllm', trustRemoteCode: true }), 'vllm').options)).toEqual(['--trust-remote-code']);
    expect(toArgv(engineOptions(resolved({ type: 'sglang', trustRemoteCode: true }), 'sglang').options)).toEqual(['--trust-remote-code']);
    expect(engineOptions(resolved({ type: 'llamacpp', trustRemoteCode: true }), 'llamacpp').warnings).toEqual([
      'engine.trustRemoteCode does not apply to llama.cpp and is ignored',
    ]);
  });

  it('orders served name, context length, trust-remote-code, then args sorted by key', () => {
    const spec = resolved(
      { type: 'vllm', contextLength: 2048, trustRemoteCode: true, args: { 'z-flag': '1', quantization: 'awq', 'a-flag': '' } },
      { id: 'org/model', servedName: 'chat' },
    );
    expect(toArgv(engineOptions(spec, 'vllm').options)).toEqual([
      '--served-model-name',
      'chat',
      '--max-model-len',
      '2048',
      '--trust-remote-code',
      '--a-flag',
      '--quantization',
      'awq',
      '--z-flag',
      '1',
    ]);
  });

  it('args: "" and "true" are bare flags, "false" leaves the flag out, leading dashes are accepted', () => {
    const spec = resolved({ type: 'vllm', args: { '--enforce-eager': 'true', 'enable-prefix-caching': 'false', 'b': '' } });
    expect(toArgv(engineOptions(spec, 'vllm').options)).toEqual(['--enforce-eager', '--b']);
  });

  it('a leading-dash duplicate of the same flag is reported once and ignored', () => {
    const { options, warnings } = engineOptions(resolved({ type: 'vllm', args: { quantization: 'awq', '--quantization': 'gptq' } }), 'vllm');
    expect(toArgv(options)).toEqual(['--quantization', 'gptq']);
    expect(warnings).toEqual(['engine.args.quantization repeats flag --quantization and is ignored']);
  });

  it('servedName equal to the model id or its basename (the webhook default) renders no flag', () => {
    for (const servedName of ['org/model', 'model', '']) {
      expect(engineOptions(resolved({ type: 'vllm' }, { id: 'org/model', servedName }), 'vllm').options).toEqual([]);
    }
    expect(engineOptions(resolved({ type: 'vllm' }, { source: 'custom', servedName: 'x' }), 'vllm').options).toEqual([]);
  });

  it('typedValue: numbers and booleans typed, everything else a string', () => {
    expect([typedValue('0.9'), typedValue('8192'), typedValue(''), typedValue('false'), typedValue('awq'), typedValue('08'), typedValue('1e400')]).toEqual([
      0.9,
      8192,
      true,
      false,
      'awq',
      '08',
      '1e400',
    ]);
  });
});
