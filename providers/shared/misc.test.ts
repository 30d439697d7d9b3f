import { describe, expect, it } from 'vitest';
import { gpuVllmSpec } from '../../api/testing/fixtures.ts';
import { modelDeployment } from '../testing/fixtures.ts';
import { chooseApiVersion, UnsupportedApiVersionError, assertSupportedApiVersion } from './api-version.ts';
import { labelValue } from './label-value.ts';
import { objectMeta, ownedObjectSelector } from './metadata.ts';
import { childName } from './names.ts';
import { shellCommand, shellQuote } from './shell.ts';
import { resolveSpec } from './spec.ts';

describe('shell quoting', () => {
  it('leaves plain words alone and single-quotes everything else', () => {
    expect(shellQuote('meta-llama/Llama-3.1-8B-Instruct')).toBe('meta-llama/Llama-3.1-8B-Instruct');
    expect(shellQuote('a b')).toBe(`'a b'`);
    expect(shellQuote(`it's`)).toBe(`'it'\\''s'`);
    expect(shellQuote('$(id)')).toBe(`'$(id)'`);
    expect(shellQuote('')).toBe(`''`);
    expect(shellCommand(['python3', '-m', 'x', '--k', '{"a": 1}'])).toBe(`python3 -m x --k '{"a": 1}'`);
  });
});

describe('label values', () => {
  it('keeps valid values and shortens others stably to a valid value', () => {
    expect(labelValue('llama-8b')).toBe('llama-8b');
    const long = 'a'.repeat(100);
    expect(labelValue(long)).toBe(labelValue(long));
    expect(labelValue(long)).toMatch(/^a{54}-[0-9a-f]{8}$/);
    expect(labelValue('-x-')).toMatch(/^x-[0-9a-f]{8}$/);
  });
});

describe('metadata', () => {
  it('owner reference, namespace and labels (seed §4.8, §4.12)', () => {
    const md = modelDeployment('my-llm', gpuVllmSpec(), { namespace: 'team', labels: { 'kubeairunway.ai/team': 'a', app: 'b' } });
    expect(objectMeta(resolveSpec(md))).toEqual({
      name: 'my-llm',
      namespace: 'team',
      labels: {
        'kubeairunway.ai/engine-type': 'vllm',
        'kubeairunway.ai/managed-by': 'kubeairunway',
        'kubeairunway.ai/model-deployment': 'my-llm',
        'kubeairunway.ai/model-source': 'huggingface',
        'kubeairunway.ai/team': 'a',
      },
      ownerReferences: [
        { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'my-llm', uid: 'uid-my-llm', controller: true, blockOwnerDeletion: true },
      ],
    });
    expect(ownedObjectSelector('my-llm')).toEqual({ 'kubeairunway.ai/managed-by': 'kubeairunway', 'kubeairunway.ai/model-deployment': 'my-llm' });
  });

  it('leaves uid out when rendering offline', () => {
    const md = modelDeployment('x', gpuVllmSpec(), { uid: undefined });
    expect(objectMeta(resolveSpec(md)).ownerReferences[0]).not.toHaveProperty('uid');
  });
});

describe('child names', () => {
  it('append a suffix and stay within 253 characters', () => {
    expect(childName('llama', 'inference-config')).toBe('llama-inference-config');
    const name = childName('n'.repeat(250), 'inference-config');
    expect(name.length).toBeLessThanOrEqual(253);
    expect(name.endsWith('-inference-config')).toBe(true);
    expect(childName('n'.repeat(250), 'inference-config')).toBe(name);
  });
});

describe('API version negotiation (seed §4.10)', () => {
  const resource = { group: 'kaito.sh', kind: 'Workspace', plural: 'workspaces', versions: ['v1beta1', 'v1alpha1'] };
  it('picks the first preferred version the cluster serves', () => {
    expect(chooseApiVersion(resource, ['v1alpha1', 'v1beta1'])).toEqual({ apiVersion: 'kaito.sh/v1beta1' });
    expect(chooseApiVersion(resource, ['v1alpha1'])).toEqual({ apiVersion: 'kaito.sh/v1alpha1' });
  });
  it('explains an unknown schema version', () => {
    expect(chooseApiVersion(resource, ['v1'])).toEqual({
      error: 'Unsupported Workspace schema version (installed: kaito.sh/v1; supported: kaito.sh/v1beta1, kaito.sh/v1alpha1)',
    });
    expect(chooseApiVersion(resource, [])).toEqual({
      error: 'Unsupported Workspace schema version (installed: none; supported: kaito.sh/v1beta1, kaito.sh/v1alpha1)',
    });
  });
  it('render guard throws a typed error', () => {
    expect(() => assertSupportedApiVersion(resource, 'kaito.sh/v2')).toThrow(UnsupportedApiVersionError);
  });
});
