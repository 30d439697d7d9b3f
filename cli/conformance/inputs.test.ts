import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goldenInputs } from '../../providers/golden-inputs.ts';
import { parseManifests } from '../../present/documents.ts';
import type { CliIO } from '../io.ts';
import { loadProviderCatalog } from '../../kinds/model-deployment/provider-catalog.ts';
import { conformanceTargets, PLACEHOLDER_UID, renderCases } from './inputs.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const example = (file: string) => parseManifests(readFileSync(join(ROOT, 'examples', file), 'utf8'), `examples/${file}`);
const noFiles = {} as CliIO;
const catalog = () => loadProviderCatalog(noFiles);
const every = new Map(conformanceTargets().map((t) => [t.name, t.resource.versions.map((v) => `${t.resource.group}/${v}`)]));

describe('conformance inputs', () => {
  it('targets: the built-in providers, KEDA, and the routes and pools of every deployment', () => {
    expect(conformanceTargets().map((t) => `${t.name} ${t.resource.plural}.${t.resource.group}`)).toEqual([
      'deployment deployments.apps',
      'dynamo dynamographdeployments.nvidia.com',
      'kaito workspaces.kaito.sh',
      'kuberay rayservices.ray.io',
      'keda scaledobjects.keda.sh',
      'httproute httproutes.gateway.networking.k8s.io',
      'inferencepool inferencepools.inference.networking.k8s.io',
    ]);
  });

  it('renders each golden input once per version asked for, and nothing for a target without versions', async () => {
    const versions = new Map([['dynamo', ['nvidia.com/v1beta1', 'nvidia.com/v1alpha1']], ['kaito', []]]);
    const { cases, notes } = renderCases({ documents: [], goldens: goldenInputs() }, await catalog(), versions);
    expect(notes).toEqual([]);
    const dynamoGoldens = goldenInputs().filter((g) => g.provider === 'dynamo');
    expect(cases).toHaveLength(dynamoGoldens.length * 2);
    expect(cases.every((c) => c.target === 'dynamo' && c.object.apiVersion === c.apiVersion && c.object.kind === 'DynamoGraphDeployment')).toBe(true);
    expect(cases[0]!.source).toBe(`golden dynamo/${dynamoGoldens[0]!.name}`);
  });

  it('a manifest goes to every provider that can serve it, with a uid for its owner reference', async () => {
    const { cases, notes } = renderCases({ documents: example('gpu-vllm-dynamo.yaml'), goldens: [] }, await catalog(), every);
    expect(notes).toEqual([]);
    expect(cases.map((c) => `${c.target} ${c.apiVersion} ${c.object.kind}/${c.object.metadata?.name}`)).toEqual([
      'deployment apps/v1 Deployment/llama-8b',
      'dynamo nvidia.com/v1beta1 DynamoGraphDeployment/llama-8b',
      'dynamo nvidia.com/v1alpha1 DynamoGraphDeployment/llama-8b',
      'kaito kaito.sh/v1beta1 Workspace/llama-8b',
      'kuberay ray.io/v1 RayService/llama-8b',
    ]);
    expect(cases.every((c) => c.object.metadata?.ownerReferences?.[0]?.uid === PLACEHOLDER_UID)).toBe(true);
    expect(cases.every((c) => c.source === 'examples/gpu-vllm-dynamo.yaml')).toBe(true);
  });

  it('llama.cpp on CPU is KAITO and the deployment provider only: the other providers are not asked', async () => {
    const { cases } = renderCases({ documents: example('cpu-llamacpp-minimal.yaml'), goldens: [] }, await catalog(), every);
    expect(cases.map((c) => c.target)).toEqual(['deployment', 'kaito']);
  });

  it("an AsyncActor's ScaledObject, binding to a ModelDeployment given beside it, owned by the actor", async () => {
    const documents = [...example('cpu-gguf-kaito.yaml'), ...example('async-actor-binding.yaml'), ...example('async-actor-standalone.yaml')];
    const { cases, notes } = renderCases({ documents, goldens: [] }, await catalog(), new Map([['keda', ['keda.sh/v1alpha1']]]));
    expect(notes).toEqual([]);
    expect(cases.map((c) => `${c.target} ${c.object.kind}/${c.object.metadata?.name} ${c.source}`)).toEqual([
      'keda ScaledObject/gemma-async examples/async-actor-binding.yaml',
      'keda ScaledObject/text-processor examples/async-actor-standalone.yaml',
    ]);
    expect((cases[0]!.object.spec as { scaleTargetRef: unknown }).scaleTargetRef).toEqual({ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'gemma-cpu' });
    expect(cases[0]!.object.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'AsyncActor', name: 'gemma-async', uid: PLACEHOLDER_UID })]);
  });

  it('says why a manifest that no provider can render was left out', async () => {
    const bad = parseManifests(JSON.stringify({ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: 'bad' }, spec: { engine: { type: 'vllm' } } }), 'bad.yaml');
    const { cases, notes } = renderCases({ documents: bad, goldens: [] }, await catalog(), every);
    expect(cases).toEqual([]);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(/^bad\.yaml: ModelDeployment default\/bad: /);
  });
});
