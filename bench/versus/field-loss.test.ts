import { describe, expect, it } from 'vitest';
import { fieldLossVerdict, lostFields, sampleFieldLoss } from './field-loss.ts';

interface Stored {
  apiVersion: string;
  kind: string;
  metadata: object;
  spec: object;
  status?: object;
}

/** A DynamoGraphDeployment as the API server returned one written in v1alpha1 and stored in v1beta1 (seen on a local stack). */
function pruned(name: string): Stored {
  return {
    apiVersion: 'nvidia.com/v1alpha1',
    kind: 'DynamoGraphDeployment',
    metadata: {
      name,
      labels: { app: 'x' },
      ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: 'u1' }],
      managedFields: [
        {
          manager: 'peer',
          operation: 'Update',
          fieldsV1: {
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} }, 'f:ownerReferences': { '.': {}, 'k:{"uid":"u1"}': { '.': {}, 'f:uid': {}, 'f:name': {} } } },
            'f:spec': { '.': {}, 'f:backendFramework': {}, 'f:services': { '.': {}, 'f:Frontend': { '.': {}, 'f:replicas': {} } } },
          },
        },
        { manager: 'bench', operation: 'Update', subresource: 'status', fieldsV1: { 'f:status': { '.': {}, 'f:state': {} } } },
      ],
    },
    spec: { backendFramework: 'vllm' },
    status: { state: 'successful' },
  };
}

function kept(name: string): Stored {
  const object = pruned(name);
  return { ...object, spec: { backendFramework: 'vllm', services: { Frontend: { replicas: 1 } } } };
}

describe('lostFields', () => {
  it('names a field a writer set that the stored object lacks, at its outermost missing level', () => {
    expect(lostFields(pruned('a'))).toEqual(['spec.services']);
  });

  it('finds nothing when every written field is stored, list items included', () => {
    expect(lostFields(kept('a'))).toEqual([]);
  });

  it('finds nested losses and losses under a missing parent once', () => {
    const object = kept('a');
    object.spec = { backendFramework: 'vllm', services: { Frontend: {} } };
    expect(lostFields(object)).toEqual(['spec.services.Frontend.replicas']);
    delete object.status;
    expect(lostFields(object)).toEqual(['spec.services.Frontend.replicas', 'status']);
  });

  it('finds nothing on an object without managedFields', () => {
    expect(lostFields({ metadata: { name: 'a' }, spec: {} })).toEqual([]);
  });
});

describe('sampleFieldLoss and its verdict', () => {
  it('counts each lost path over the sample and says the subject’s figures are void', () => {
    const sample = sampleFieldLoss('DynamoGraphDeployment', [pruned('a'), kept('b'), pruned('c')]);
    expect(sample).toEqual({ kind: 'DynamoGraphDeployment', sampled: 3, lost: [{ path: 'spec.services', objects: 2 }] });
    expect(fieldLossVerdict('reference', sample)).toBe(
      "reference: its DynamoGraphDeployments lose fields when stored (spec.services on 2 of 3; written in a version the CRD does not store, with no conversion): reference's figures are void",
    );
  });

  it('says nothing when nothing was lost or nothing was sampled', () => {
    expect(fieldLossVerdict('ours', sampleFieldLoss('DynamoGraphDeployment', [kept('a')]))).toBeUndefined();
    expect(fieldLossVerdict('ours', undefined)).toBeUndefined();
  });
});
