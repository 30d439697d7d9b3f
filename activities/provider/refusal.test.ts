import { describe, expect, it } from 'vitest';
import type { KubernetesObject } from '../../providers/contract.ts';
import { apiRefusal, schemaRefusal } from './refusal.ts';

const crd = {
  metadata: { name: 'things.example.com' },
  spec: {
    versions: [
      {
        name: 'v1',
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { image: { type: 'string' }, replicas: { type: 'integer' } } } } } },
      },
      { name: 'v2' },
    ],
  },
};
const thing = (spec: Record<string, unknown>, apiVersion = 'example.com/v1'): KubernetesObject => ({ apiVersion, kind: 'Thing', metadata: { name: 'llama', namespace: 'default', labels: {}, ownerReferences: [] }, spec });

describe('schemaRefusal', () => {
  it('names the object, the CRD, its version and every field the schema refuses', () => {
    expect(schemaRefusal(thing({ image: 'i', 'router-mode': 'kv', replicas: 'two' }), crd)).toBe(
      "Thing 'llama' does not fit the installed CRD things.example.com (example.com/v1): spec.router-mode: field not declared in schema; spec.replicas: expected an integer, got the string \"two\"",
    );
  });

  it('says nothing of an object the schema takes, or of a version without a schema (the API server decides)', () => {
    expect(schemaRefusal(thing({ image: 'i', replicas: 1 }), crd)).toBeUndefined();
    expect(schemaRefusal(thing({ anything: 1 }, 'example.com/v2'), crd)).toBeUndefined();
    expect(schemaRefusal(thing({ anything: 1 }), undefined)).toBeUndefined();
  });
});

describe('apiRefusal', () => {
  it("quotes the API server's own words", () => {
    expect(apiRefusal(thing({}), 'Thing.example.com "llama" is invalid: spec.replicas: Invalid value: -1')).toBe(
      'The API server refused Thing \'llama\': Thing.example.com "llama" is invalid: spec.replicas: Invalid value: -1',
    );
  });
});
