import { describe, expect, it } from 'vitest';
import { canonicalObject, isRenderedObject } from './rendered-object.ts';

const owner = { apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', name: 'm', controller: true as const, blockOwnerDeletion: true as const };
const object = { kind: 'Workspace', apiVersion: 'kaito.sh/v1beta1', metadata: { namespace: 'ns', name: 'm', labels: { b: '2', a: '1' }, ownerReferences: [owner] }, spec: { z: 1, a: undefined } };

describe('rendered objects in canonical form', () => {
  it('sorts keys and drops undefined, keeping the object', () => {
    const canonical = canonicalObject(object);
    expect(JSON.stringify(canonical)).toBe(
      '{"apiVersion":"kaito.sh/v1beta1","kind":"Workspace","metadata":{"labels":{"a":"1","b":"2"},"name":"m","namespace":"ns","ownerReferences":[{"apiVersion":"kubeairunway.ai/v1alpha1","blockOwnerDeletion":true,"controller":true,"kind":"ModelDeployment","name":"m"}]},"spec":{"z":1}}',
    );
  });

  it('knows a rendered object by its apiVersion, kind and metadata, and nothing less', () => {
    expect(isRenderedObject(object)).toBe(true);
    expect(isRenderedObject({ ...object, metadata: { ...object.metadata, ownerReferences: [{ ...owner, uid: 'u' }] } })).toBe(true);
    expect(isRenderedObject({ ...object, kind: undefined })).toBe(false);
    expect(isRenderedObject({ ...object, metadata: { ...object.metadata, namespace: undefined } })).toBe(false);
    expect(isRenderedObject({ ...object, metadata: { ...object.metadata, labels: { a: 1 } } })).toBe(false);
    expect(isRenderedObject({ ...object, metadata: { ...object.metadata, annotations: [] } })).toBe(false);
    expect(isRenderedObject({ ...object, metadata: { ...object.metadata, ownerReferences: [{ ...owner, controller: false }] } })).toBe(false);
    expect(isRenderedObject([object])).toBe(false);
  });
});
