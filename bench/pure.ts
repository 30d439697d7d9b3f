// The pure core, per call: validation, rendering per provider, and CEL provider selection.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { validate } from '../api/validate.ts';
import type { ModelDeployment } from '../api/types.ts';
import { builtinProviders, findProvider, selectProvider } from '../providers/index.ts';
import { opsPerSecond } from './measure.ts';

const example = (file: string): ModelDeployment => {
  const md = parse(readFileSync(new URL(`../examples/${file}`, import.meta.url), 'utf8')) as ModelDeployment;
  md.metadata.uid = '00000000-0000-0000-0000-000000000001';
  return md;
};

export function benchPure(): Record<string, number> {
  const gpu = example('gpu-vllm-dynamo.yaml');
  const disagg = example('disaggregated-dynamo.yaml');
  const cpu = example('cpu-gguf-kaito.yaml');
  const configs = builtinProviders.map((p) => ({ ...p.config, status: { ready: true } }));
  const dynamo = findProvider('dynamo')!;
  const kaito = findProvider('kaito')!;
  const kuberay = findProvider('kuberay')!;
  return {
    'validate (Example 1)': opsPerSecond(() => validate(gpu.spec)),
    'render Dynamo aggregated (Example 1)': opsPerSecond(() => dynamo.render(gpu, { apiVersion: 'nvidia.com/v1alpha1' })),
    'render Dynamo disaggregated (Example 3)': opsPerSecond(() => dynamo.render(disagg, { apiVersion: 'nvidia.com/v1alpha1' })),
    'render KAITO (Example 2)': opsPerSecond(() => kaito.render(cpu, { apiVersion: 'kaito.sh/v1beta1' })),
    'render KubeRay': opsPerSecond(() => kuberay.render(gpu, { apiVersion: 'ray.io/v1' })),
    'select provider (3 configs, CEL)': opsPerSecond(() => selectProvider(gpu, configs, { selectorEnabled: true })),
  };
}
