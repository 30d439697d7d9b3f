// spec.model.storage validation: every rule of the brief, with its exact message, and the same messages
// at admission (the webhook), offline (`kar validate`'s check) and in the workflow (validate with the
// object's name, as the validation activity calls it). The CRD carries the same rules as CEL, evaluated
// here by the one interpreter (api/schema/check.ts), so the API server says them too.

import { describe, expect, it } from 'vitest';
import { checkModelDeployment } from '../kinds/model-deployment/objects.ts';
import { ERROR_SEPARATOR, validateRequest } from '../webhook/review.ts';
import { applyDefaults } from './defaults.ts';
import { classifyUpdate } from './update-classification.ts';
import type { ModelDeploymentSpec } from './types.ts';
import { validate } from './validate.ts';

const NAME = 'llama';
const V = 'spec.model.storage.volumes';
const spec = (volumes: unknown): ModelDeploymentSpec => ({ engine: { type: 'llamacpp' }, image: 'runner:1', model: { id: 'a/b', storage: { volumes } } }) as ModelDeploymentSpec;
const messages = (volumes: unknown, name = NAME) => validate(spec(volumes), { name }).errors.map((e) => e.message);
const cache = { name: 'cache', purpose: 'modelCache', size: '100Gi' };

const cases: Array<[string, unknown, string[]]> = [
  ['a custom volume without mountPath', [{ name: 'data', claimName: 'shared' }, { name: 'x', purpose: 'custom', claimName: 'y' }], [
    `${V}[0].mountPath is required when purpose is custom`,
    `${V}[1].mountPath is required when purpose is custom`,
  ]],
  ['a duplicate name', [cache, { ...cache, purpose: 'compilationCache' }], [`${V} has a duplicate entry ["cache"]`]],
  ['a duplicate mountPath (one given, one by default)', [cache, { name: 'data', mountPath: '/model-cache', claimName: 'c' }], [
    `${V} must not mount two volumes at the same path (a volume's mountPath, or the default of its purpose: /model-cache, /compilation-cache)`,
  ]],
  ['more than one modelCache', [cache, { name: 'more', purpose: 'modelCache', mountPath: '/more', claimName: 'c' }], [
    `${V} can hold only one volume of purpose modelCache (the engine is pointed at one model cache)`,
  ]],
  ['size with a foreign claim', [{ ...cache, claimName: 'team-cache' }], [
    `${V}[0].size cannot be set with claimName 'team-cache': size asks the controller to create (and delete with the deployment) the claim 'llama-cache', and 'team-cache' is not it; remove size to mount the existing claim 'team-cache', or remove claimName`,
  ]],
  ['storageClassName or accessMode without size', [{ name: 'cache', purpose: 'modelCache', claimName: 'c', storageClassName: '', accessMode: 'ReadWriteOnce' }], [
    `${V}[0].storageClassName can only be set with size (it applies to a claim the controller creates)`,
    `${V}[0].accessMode can only be set with size (it applies to a claim the controller creates)`,
  ]],
  ['neither a claim nor a size', [{ name: 'cache', purpose: 'modelCache' }], [`${V}[0].claimName is required unless size is set (size asks the controller to create the claim)`]],
  ['a name that is not a DNS label', [{ ...cache, name: 'Model_Cache' }], [
    `${V}[0].name must be a DNS label (at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit, such as "cache"), got "Model_Cache"`,
  ]],
  ['a bad quantity, and a zero one', [{ ...cache, size: '100 GB' }, { name: 'c2', purpose: 'compilationCache', size: '0' }], [
    `${V}[0].size must be a Kubernetes quantity greater than zero such as "100Gi", got "100 GB"`,
    `${V}[1].size must be a Kubernetes quantity greater than zero such as "100Gi", got "0"`,
  ]],
  ['a relative mountPath, an unknown purpose or access mode', [{ name: 'd', mountPath: 'data', claimName: 'c', purpose: 'weights' }, { ...cache, accessMode: 'RWX' }], [
    `${V}[0].mountPath must be an absolute path such as "/model-cache", got "data"`,
    `${V}[0].purpose must be one of modelCache, compilationCache, custom, got "weights"`,
    `${V}[1].accessMode must be one of ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod, got "RWX"`,
  ]],
  ['more than 8 volumes', Array.from({ length: 9 }, (_, i) => ({ name: `v${i}`, mountPath: `/v${i}`, claimName: 'c' })), [`${V} must have at most 8 items, got 9`]],
];

describe('spec.model.storage validation', () => {
  it.each(cases)('%s', (_label, volumes, expected) => {
    expect(messages(volumes)).toEqual(expected);
  });

  it('admits every kind of volume: managed (defaults, a class, "" for none, a mode), existing, read-only, compilation cache', () => {
    expect(
      messages([
        cache,
        { name: 'compile', purpose: 'compilationCache', size: '20Gi', storageClassName: '', accessMode: 'ReadWriteOncePod' },
        { name: 'weights', claimName: 'team-weights', mountPath: '/data', readOnly: true },
        { name: 'explicit', claimName: 'llama-explicit', size: '1Gi', mountPath: '/x', storageClassName: 'fast.ssd' },
      ]),
    ).toEqual([]);
  });

  it('a claim name longer than an object name can be is refused on the volume name', () => {
    expect(messages([cache], 'm'.repeat(248))).toEqual([
      `${V}[0].name makes the name of the claim the controller creates (<ModelDeployment name>-<volume name>) 254 characters long, more than 253: use a shorter volume name`,
    ]);
  });

  it('without the object name, only the rules of the spec itself run', () => {
    expect(validate(spec([{ ...cache, claimName: 'team-cache' }])).errors).toEqual([]);
  });

  it('defaults fill purpose only: the other defaults depend on other fields and are applied where volumes render', () => {
    expect(applyDefaults(spec([{ name: 'data', mountPath: '/d', claimName: 'c' }])).model?.storage).toEqual({ volumes: [{ name: 'data', mountPath: '/d', claimName: 'c', purpose: 'custom' }] });
  });

  it('is a config field: a change of storage is patched in place, never an identity change', () => {
    expect(classifyUpdate(spec([cache]), spec([{ ...cache, size: '200Gi' }]))).toEqual({ identity: [], config: ['model.storage'] });
  });
});

describe('the same words at admission, offline and in the workflow', () => {
  const request = (s: unknown) => ({
    uid: 'u',
    kind: { group: 'kubeairunway.ai', version: 'v1alpha1', kind: 'ModelDeployment' },
    operation: 'CREATE' as const,
    namespace: 'ns',
    name: NAME,
    object: { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name: NAME, namespace: 'ns' }, spec: s },
  });

  it.each(cases)('%s', (_label, volumes, expected) => {
    const admission = validateRequest(request(spec(volumes)));
    expect(admission.allowed).toBe(false);
    expect(admission.status?.message).toBe(expected.join(ERROR_SEPARATOR));
    const offline = checkModelDeployment({ source: 'md.yaml', object: request(spec(volumes)).object });
    expect(offline.result.errors.map((e) => e.message)).toEqual(expected);
    // The workflow's validation step: validate(md.spec, { name: md.metadata.name, ... }).
    expect(validate(spec(volumes), { name: NAME, selectedProvider: 'kaito' }).errors.map((e) => e.message)).toEqual(expected);
  });
});
