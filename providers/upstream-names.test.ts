// The names the upstream operators derive from a provider resource's name must be valid Kubernetes
// names, whatever the ModelDeployment is called (issue: a 64-character name gave a 73-character
// Service name). Each operator's derivation is written out here as the operator does it, so the test
// shows the rendered names leave it room.

import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, disaggregatedSpec, gpuVllmSpec } from '../api/testing/fixtures.ts';
import type { ModelDeploymentSpec } from '../api/types.ts';
import type { ProviderDefinition } from './contract.ts';
import { dynamoProvider, kaitoProvider, kuberayProvider } from './index.ts';
import { labelValue } from './shared/label-value.ts';
import { MODEL_DEPLOYMENT_LABEL } from './shared/metadata.ts';
import { modelDeployment, type Json } from './testing/fixtures.ts';

const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^([A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

interface Case {
  provider: ProviderDefinition;
  apiVersion: string;
  spec: ModelDeploymentSpec;
  /** Longest resource name the operator can take (see each provider's defaults.ts for why). */
  maxLength: number;
  /** Names the upstream operator derives from the resource: [kind of name, name]. */
  upstream(resource: Json): Array<['service' | 'label', string]>;
}

const cases: Case[] = [
  {
    provider: kaitoProvider,
    apiVersion: 'kaito.sh/v1beta1',
    spec: gpuVllmSpec(),
    maxLength: 52,
    // Services <name> and <name>-headless; StatefulSet pods labelled controller-revision-hash: <name>-<10 chars>.
    upstream: (ws) => [
      ['service', ws.metadata.name],
      ['service', `${ws.metadata.name}-headless`],
      ['label', `${ws.metadata.name}-${'h'.repeat(10)}`],
    ],
  },
  {
    provider: dynamoProvider,
    apiVersion: 'nvidia.com/v1alpha1',
    spec: { ...disaggregatedSpec(), engine: { type: 'trtllm' } },
    maxLength: 43,
    // One component per service, named <graph>-<service key in lower case>, with a Service of that name.
    upstream: (graph) => Object.keys(graph.spec.services).map((key) => ['service', `${graph.metadata.name}-${key.toLowerCase()}`] as ['service', string]),
  },
  {
    provider: kuberayProvider,
    apiVersion: 'ray.io/v1',
    spec: gpuVllmSpec(),
    maxLength: 47,
    // RayCluster <name>-<5 random>, with Services <cluster>-head-svc and <cluster>-serve-svc; <name>-serve-svc.
    upstream: (rs) => [
      ['service', `${rs.metadata.name}-abcde-head-svc`],
      ['service', `${rs.metadata.name}-abcde-serve-svc`],
      ['service', `${rs.metadata.name}-serve-svc`],
    ],
  },
];

const NAMES = {
  ordinary: 'llama-8b',
  '64 characters': `llama-${'x'.repeat(58)}`,
  '253 characters, dotted': Array.from({ length: 4 }, (_, i) => `${String(i)}${'n'.repeat(61)}`).join('.').slice(0, 253),
  'leading digit': '3b-chat',
  dotted: 'llama-3.1-8b',
};

describe.each(cases.map((c) => [c.provider.name, c] as const))('%s', (_name, c) => {
  const render = (name: string) => c.provider.render(modelDeployment(name, c.spec), { apiVersion: c.apiVersion });

  it.each(Object.entries(NAMES))('%s: every name the operator derives is valid', (_label, name) => {
    const resource = render(name).objects[0] as Json;
    for (const [kind, derived] of c.upstream(resource)) {
      expect(derived.length, derived).toBeLessThanOrEqual(63);
      expect(derived, derived).toMatch(kind === 'service' ? DNS_1035_LABEL : LABEL_VALUE);
    }
  });

  it('an ordinary name is used as is, without a warning', () => {
    const result = render(NAMES.ordinary);
    expect((result.objects[0] as Json).metadata.name).toBe(NAMES.ordinary);
    expect(result.warnings.filter((w) => w.startsWith('metadata.name'))).toEqual([]);
  });

  it('a renamed resource says so, stays linked to its ModelDeployment and renders the same bytes every time', () => {
    const name = NAMES['64 characters'];
    const first = render(name);
    const resource = first.objects[0] as Json;
    expect(resource.metadata.name).not.toBe(name);
    const kind = c.provider.resource.kind;
    expect(first.warnings).toContain(
      `metadata.name '${name}' is not a DNS-1035 label of at most ${c.maxLength} characters, which ${kind} names must be (its operator derives Service and pod names from them): the ${kind} is named '${resource.metadata.name}'`,
    );
    expect(resource.metadata.name.length).toBeLessThanOrEqual(c.maxLength);
    expect(resource.metadata.ownerReferences[0].name).toBe(name);
    expect(resource.metadata.labels[MODEL_DEPLOYMENT_LABEL]).toBe(labelValue(name));
    expect(JSON.stringify(render(name))).toBe(JSON.stringify(first));
  });
});

it('KAITO: the inference ConfigMap follows the Workspace name', () => {
  const spec = { ...gpuVllmSpec(), engine: { type: 'vllm' as const, args: { quantization: 'awq' } } };
  const [workspace, configMap] = kaitoProvider.render(modelDeployment(NAMES['64 characters'], spec), { apiVersion: 'kaito.sh/v1beta1' }).objects as Json[];
  expect(configMap.metadata.name).toBe(`${workspace.metadata.name}-inference-config`);
  expect(workspace.inference.config).toBe(configMap.metadata.name);
});

it('llama.cpp on KAITO renders with a safe name too', () => {
  const ws = kaitoProvider.render(modelDeployment(NAMES.dotted, cpuLlamacppSpec()), { apiVersion: 'kaito.sh/v1beta1' }).objects[0] as Json;
  expect(ws.metadata.name).toMatch(DNS_1035_LABEL);
});
