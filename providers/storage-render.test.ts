// spec.model.storage as each built-in provider renders it: the goldens of the storage inputs (one per
// provider and API version), where each upstream takes volumes and mounts, the managed claims appended
// after the provider resource, the cache env, and what a deployment without storage keeps (nothing new).

import { describe, expect, it } from 'vitest';
import { cpuLlamacppSpec, gpuVllmSpec } from '../api/seed-examples.ts';
import { goldenInputs, modelDeployment, withStorage } from './golden-inputs.ts';
import { findProvider } from './index.ts';
import { kaitoMessages } from './kaito/compatibility.ts';
import { goldenText } from './testing/fixtures.ts';
import type { Json } from './testing/fixtures.ts';

const storageInputs = goldenInputs().filter((g) => g.name.includes('storage'));
/** Sorted by path, so a parent path is always mounted before a path inside it. */
const MOUNTS = [
  { name: 'compile', mountPath: '/compilation-cache' },
  { name: 'weights', mountPath: '/data/weights', readOnly: true },
  { name: 'cache', mountPath: '/model-cache' },
];
const VOLUMES = [
  { name: 'cache', persistentVolumeClaim: { claimName: `NAME-cache` } },
  { name: 'compile', persistentVolumeClaim: { claimName: `NAME-compile` } },
  { name: 'weights', persistentVolumeClaim: { claimName: 'team-weights', readOnly: true } },
];
const volumesOf = (name: string) => VOLUMES.map((v) => ({ ...v, persistentVolumeClaim: { ...v.persistentVolumeClaim, claimName: v.persistentVolumeClaim.claimName.replace('NAME', name) } }));

describe('storage goldens', () => {
  for (const input of storageInputs) {
    const provider = findProvider(input.provider)!;
    for (const version of provider.resource.versions) {
      const apiVersion = `${provider.resource.group}/${version}`;
      // Dynamo's v1alpha1 goldens sit at the top of its folder (they came first), v1beta1's in a folder of their own.
      const folder = input.provider === 'dynamo' && version === 'v1beta1' ? 'v1beta1/' : '';
      it(`${input.provider} ${input.name} @ ${version}`, async () => {
        await expect(goldenText(provider.render(input.md, { apiVersion }))).toMatchFileSnapshot(`./${input.provider}/__golden__/${folder}${input.name}.yaml`);
      });
    }
  }
});

describe('managed claims', () => {
  it('follow the provider resource, named <md>-<volume>, owned and labelled like every rendered object, storageClassName only when given', () => {
    const md = modelDeployment('cached', withStorage(gpuVllmSpec()));
    const [primary, ...claims] = findProvider('dynamo')!.render(md, { apiVersion: 'nvidia.com/v1beta1' }).objects;
    expect(claims.map((c) => [c.kind, c.metadata.name])).toEqual([
      ['PersistentVolumeClaim', 'cached-cache'],
      ['PersistentVolumeClaim', 'cached-compile'],
    ]);
    expect(claims[0]!.metadata.ownerReferences).toEqual(primary!.metadata.ownerReferences);
    expect(claims[0]!.metadata.labels['kubeairunway.ai/model-deployment']).toBe('cached');
    expect(claims.map((c) => c.spec)).toEqual([
      { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '200Gi' } } },
      { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } }, storageClassName: 'fast-ssd' },
    ]);
  });
});

describe('where each upstream takes volumes and mounts', () => {
  it('KAITO llama.cpp: the Workspace template, with the runner pointed at the model cache', () => {
    const { objects } = findProvider('kaito')!.render(modelDeployment('g', withStorage(cpuLlamacppSpec())), { apiVersion: 'kaito.sh/v1beta1' });
    const pod = (objects[0] as Json).inference.template.spec;
    expect(pod.volumes).toEqual(volumesOf('g'));
    expect(pod.containers[0].volumeMounts).toEqual(MOUNTS);
    expect(pod.containers[0].env).toEqual([
      { name: 'HF_HOME', value: '/model-cache' },
      { name: 'LLAMA_CACHE', value: '/model-cache' },
    ]);
  });

  it('KAITO vLLM presets have no place for volumes: compatibility says so, naming the field', () => {
    const md = modelDeployment('p', withStorage(gpuVllmSpec()));
    expect(findProvider('kaito')!.compatibility(md).errors).toEqual([kaitoMessages.presetCannotMountStorage]);
    expect(kaitoMessages.presetCannotMountStorage).toContain('spec.model.storage');
  });

  it('Dynamo: the workers mount it (v1alpha1 extraPodSpec, v1beta1 podTemplate), the Frontend does not', () => {
    const md = modelDeployment('c', withStorage(gpuVllmSpec()));
    const alpha = (findProvider('dynamo')!.render(md, { apiVersion: 'nvidia.com/v1alpha1' }).objects[0] as Json).spec.services;
    expect(alpha.VllmWorker.extraPodSpec.volumes).toEqual(volumesOf('c'));
    expect(alpha.VllmWorker.extraPodSpec.mainContainer.volumeMounts).toEqual(MOUNTS);
    expect(alpha.VllmWorker.extraPodSpec.mainContainer.env).toContainEqual({ name: 'HF_HOME', value: '/model-cache' });
    expect(alpha.Frontend.extraPodSpec).not.toHaveProperty('volumes');
    expect(alpha.Frontend.extraPodSpec.mainContainer.env).not.toContainEqual({ name: 'HF_HOME', value: '/model-cache' });
    const beta = (findProvider('dynamo')!.render(md, { apiVersion: 'nvidia.com/v1beta1' }).objects[0] as Json).spec.components;
    const worker = beta.find((c: Json) => c.name === 'VllmWorker');
    expect(worker.podTemplate.spec.volumes).toEqual(volumesOf('c'));
    expect(worker.podTemplate.spec.containers[0].volumeMounts).toEqual(MOUNTS);
    expect(beta.find((c: Json) => c.name === 'Frontend').podTemplate.spec).not.toHaveProperty('volumes');
  });

  it('KubeRay: head and every worker group', () => {
    const md = modelDeployment('r', withStorage({ ...gpuVllmSpec(), provider: { name: 'kuberay' } }));
    const ray = (findProvider('kuberay')!.render(md, { apiVersion: 'ray.io/v1' }).objects[0] as Json).spec.rayClusterConfig;
    for (const group of [ray.headGroupSpec, ...ray.workerGroupSpecs]) {
      expect(group.template.spec.volumes).toEqual(volumesOf('r'));
      expect(group.template.spec.containers[0].volumeMounts).toEqual(MOUNTS);
      expect(group.template.spec.containers[0].env[0]).toEqual({ name: 'HF_HOME', value: '/model-cache' });
    }
  });

  it("a user's own HF_HOME wins, with a warning", () => {
    const spec = withStorage({ ...gpuVllmSpec(), env: [{ name: 'HF_HOME', value: '/mine' }] });
    const { objects, warnings } = findProvider('dynamo')!.render(modelDeployment('c', spec), { apiVersion: 'nvidia.com/v1beta1' });
    const worker = (objects[0] as Json).spec.components.find((c: Json) => c.name === 'VllmWorker');
    expect(worker.podTemplate.spec.containers[0].env).toEqual([{ name: 'HF_HOME', value: '/mine' }]);
    expect(warnings).toContain("env HF_HOME is set; it takes the place of the model cache path '/model-cache' (spec.model.storage)");
  });
});
