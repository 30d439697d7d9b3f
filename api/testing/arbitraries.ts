// fast-check generators of ModelDeployment specs with the schema's shape. `garbage` mixes arbitrary JSON
// in at every level, for properties that must hold for any input.

import fc from 'fast-check';
import { ENGINE_TYPES, MODEL_SOURCES, SERVING_MODES } from '../constants.ts';
import type { ModelDeploymentSpec } from '../types.ts';

type Arb<T> = fc.Arbitrary<T>;

export function specArbitrary(options: { garbage?: boolean } = {}): Arb<ModelDeploymentSpec> {
  const v = <T>(arb: Arb<T>): Arb<unknown> => (options.garbage ? fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.jsonValue() }) : arb);
  const record = (shape: Record<string, Arb<unknown>>): Arb<unknown> => v(fc.record(shape, { requiredKeys: [] }));
  const quantity = v(fc.constantFrom('1', '4', '500m', '16Gi', '32Gi', '128Gi'));
  const count = v(fc.integer({ min: 0, max: 8 }));
  const stringMap = v(fc.dictionary(fc.constantFrom('a', 'team', 'gpu-memory-utilization', 'quantization'), fc.constantFrom('x', '0.9', 'awq'), { maxKeys: 3 }));
  const gpu = record({ count, type: v(fc.constantFrom('nvidia.com/gpu', 'amd.com/gpu')) });
  const component = record({ replicas: count, gpu, memory: quantity, cpu: quantity });

  return record({
    model: record({
      id: v(fc.constantFrom('', 'meta-llama/Llama-3.1-8B-Instruct', 'google/gemma-3-1b-it-qat-q8_0-gguf', 'plain')),
      servedName: v(fc.constantFrom('', 'chat')),
      source: v(fc.constantFrom(...MODEL_SOURCES)),
      storage: record({
        volumes: v(
          fc.uniqueArray(
            record({
              name: v(fc.constantFrom('cache', 'compile', 'data')),
              purpose: v(fc.constantFrom('modelCache', 'compilationCache', 'custom')),
              mountPath: v(fc.constantFrom('/model-cache', '/data', '/data/sub')),
              claimName: v(fc.constantFrom('shared', 'm-cache')),
              size: v(fc.constantFrom('10Gi', '1.5Ti')),
              storageClassName: v(fc.constantFrom('', 'standard')),
              accessMode: v(fc.constantFrom('ReadWriteOnce', 'ReadWriteMany')),
              readOnly: v(fc.boolean()),
            }),
            { maxLength: 3, selector: (x) => JSON.stringify(x) },
          ),
        ),
      }),
    }),
    provider: record({
      name: v(fc.constantFrom('', 'kaito', 'dynamo', 'kuberay')),
      overrides: v(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 })),
    }),
    engine: record({
      type: v(fc.constantFrom(...ENGINE_TYPES, '')),
      contextLength: v(fc.integer({ min: 1, max: 131072 })),
      trustRemoteCode: v(fc.boolean()),
      args: stringMap,
    }),
    serving: record({ mode: v(fc.constantFrom(...SERVING_MODES)) }),
    scaling: record({ replicas: count, prefill: component, decode: component }),
    resources: record({ gpu, memory: quantity, cpu: quantity }),
    image: v(fc.constantFrom('ghcr.io/example/runner:latest', 'vllm/vllm-openai:v0.8.0')),
    env: v(fc.array(record({ name: fc.constantFrom('A', 'HF_HOME'), value: v(fc.string({ maxLength: 5 })) }), { maxLength: 2 })),
    podTemplate: record({ metadata: record({ labels: stringMap, annotations: stringMap }) }),
    secrets: record({ huggingFaceToken: v(fc.constantFrom('hf-token', 'other')) }),
    nodeSelector: stringMap,
    tolerations: v(fc.array(record({ key: v(fc.constantFrom('gpu', 'spot')), operator: v(fc.constantFrom('Exists', 'Equal')) }), { maxLength: 2 })),
  }) as Arb<ModelDeploymentSpec>;
}
