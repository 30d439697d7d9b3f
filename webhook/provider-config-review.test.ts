import { describe, expect, it } from 'vitest';
import type { AdmissionRequest } from './admission.ts';
import { validateProviderConfigRequest } from './provider-config-review.ts';

const kind = { group: 'kubeairunway.ai', version: 'v1alpha1', kind: 'InferenceProviderConfig' };
const config = (conditions: string[]) => ({
  apiVersion: 'kubeairunway.ai/v1alpha1',
  kind: 'InferenceProviderConfig',
  metadata: { name: 'acme' },
  spec: { capabilities: { engines: ['vllm'] }, selectionRules: conditions.map((condition, i) => ({ condition, priority: i })) },
});
const request = (extra: Partial<AdmissionRequest>): AdmissionRequest => ({ uid: 'u1', kind, operation: 'CREATE', name: 'acme', ...extra });

describe('validateProviderConfigRequest', () => {
  it('admits rules that compile, even those that fail for some specs at selection time', () => {
    expect(validateProviderConfigRequest(request({ object: config(["spec.engine.type == 'vllm'", '1 / 0 == 1', 'spec.nothing.here']) }))).toEqual({ uid: 'u1', allowed: true });
  });

  it('denies a rule that does not compile, naming it and the compiler error; all such rules at once', () => {
    const response = validateProviderConfigRequest(request({ object: config(['true', 'spec.engine.type ==', 'size(spec) + 1']) }));
    expect(response.allowed).toBe(false);
    expect(response.status).toEqual({
      status: 'Failure',
      code: 403,
      reason: 'Forbidden',
      message:
        'spec.selectionRules[1].condition: rule 2 (spec.engine.type ==) does not compile: Unexpected token: EOF; ' +
        'spec.selectionRules[2].condition: rule 3 (size(spec) + 1) does not compile: condition has type int, not bool',
    });
  });

  it('an update that breaks a rule is denied; one that leaves the spec as it was is not judged again', () => {
    const broken = config(['spec.engine.type ==']);
    expect(validateProviderConfigRequest(request({ operation: 'UPDATE', object: broken, oldObject: config(['true']) })).allowed).toBe(false);
    const relabelled = { ...broken, metadata: { name: 'acme', labels: { a: 'b' } } };
    expect(validateProviderConfigRequest(request({ operation: 'UPDATE', object: relabelled, oldObject: broken })).allowed).toBe(true);
  });

  it('never stands in the way of deletes, status writes or other kinds', () => {
    const broken = config(['spec.engine.type ==']);
    expect(validateProviderConfigRequest(request({ operation: 'DELETE', oldObject: broken })).allowed).toBe(true);
    expect(validateProviderConfigRequest(request({ operation: 'UPDATE', subResource: 'status', object: broken })).allowed).toBe(true);
    expect(validateProviderConfigRequest(request({ kind: { ...kind, kind: 'ModelDeployment' }, object: broken })).allowed).toBe(true);
  });
});
