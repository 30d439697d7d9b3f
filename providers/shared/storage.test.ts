import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec } from '../../api/seed-examples.ts';
import type { ModelDeploymentSpec } from '../../api/types.ts';
import { modelDeployment } from '../golden-inputs.ts';
import { modelCacheEnv, modelStorage } from './storage.ts';

const withVolumes = (volumes: unknown): ModelDeploymentSpec => ({ ...cpuLlamacppSpec(), model: { ...cpuLlamacppSpec().model, storage: { volumes } } }) as ModelDeploymentSpec;
const storageOf = (volumes: unknown, name = 'md') => modelStorage(modelDeployment(name, withVolumes(volumes)));

describe('modelStorage', () => {
  it('gives nothing for a deployment without storage, so providers render what they did before', () => {
    expect(modelStorage(modelDeployment('md', cpuLlamacppSpec()))).toEqual({ volumes: [], mounts: [], claims: [] });
  });

  it('applies the defaults the CRD cannot: mountPath by purpose, <md>-<volume> for a managed claim, ReadWriteMany, no class', () => {
    const s = storageOf([{ name: 'cache', purpose: 'modelCache', size: '10Gi' }, { name: 'cc', purpose: 'compilationCache', claimName: 'shared' }]);
    expect(s.modelCachePath).toBe('/model-cache');
    expect(s.mounts).toEqual([
      { name: 'cc', mountPath: '/compilation-cache' },
      { name: 'cache', mountPath: '/model-cache' },
    ]);
    expect(s.volumes).toEqual([
      { name: 'cache', persistentVolumeClaim: { claimName: 'md-cache' } },
      { name: 'cc', persistentVolumeClaim: { claimName: 'shared' } },
    ]);
    expect(s.claims.map((c) => [c.metadata.name, c.spec])).toEqual([['md-cache', { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '10Gi' } } }]]);
  });

  it('keeps storageClassName "" (no class) apart from an absent one (the default class), and honours readOnly on volume and mount', () => {
    const s = storageOf([{ name: 'a', mountPath: '/a', size: '1Gi', storageClassName: '', readOnly: true }]);
    expect(s.claims[0]!.spec).toEqual({ accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Gi' } }, storageClassName: '' });
    expect(s.volumes).toEqual([{ name: 'a', persistentVolumeClaim: { claimName: 'md-a', readOnly: true } }]);
    expect(s.mounts).toEqual([{ name: 'a', mountPath: '/a', readOnly: true }]);
  });

  it('is the same whatever order the volumes are listed in; a parent path is mounted before a path inside it', () => {
    const volumes = [{ name: 'z', mountPath: '/m/inner', claimName: 'c1' }, { name: 'a', mountPath: '/m', claimName: 'c2' }];
    expect(storageOf(volumes)).toEqual(storageOf([...volumes].reverse()));
    expect(storageOf(volumes).mounts.map((m) => m.mountPath)).toEqual(['/m', '/m/inner']);
  });

  it('never creates (so never owns or deletes) a foreign claim, even if validation was bypassed; leaves out entries it cannot mount', () => {
    const s = storageOf([{ name: 'a', mountPath: '/a', size: '1Gi', claimName: 'someone-elses' }, { name: 'b' }, { mountPath: '/c', claimName: 'c' }, 'junk']);
    expect(s.claims).toEqual([]);
    expect(s.volumes).toEqual([{ name: 'a', persistentVolumeClaim: { claimName: 'someone-elses' } }]);
  });
});

describe('modelCacheEnv', () => {
  it('HF_HOME for vLLM, SGLang and TensorRT-LLM; HF_HOME and LLAMA_CACHE for llama.cpp; a user value wins', () => {
    expect(modelCacheEnv('/c', 'vllm', []).env).toEqual([{ name: 'HF_HOME', value: '/c' }]);
    expect(modelCacheEnv('/c', 'sglang', []).env).toEqual([{ name: 'HF_HOME', value: '/c' }]);
    expect(modelCacheEnv('/c', 'llamacpp', []).env).toEqual([{ name: 'HF_HOME', value: '/c' }, { name: 'LLAMA_CACHE', value: '/c' }]);
    expect(modelCacheEnv('/c', 'vllm', [{ name: 'HF_HOME', value: '/mine' }])).toEqual({ env: [], skipped: ['HF_HOME'] });
    expect(modelCacheEnv(undefined, 'vllm', [])).toEqual({ env: [], skipped: [] });
  });
});
