// The openAPIV3Schema of a test's own CRD: the envelope every Kubernetes object has (apiVersion, kind,
// metadata), strict like the upstream CRDs (nothing preserved unknown unless the caller says so), around
// the spec (and status) the test defines. Pure: for unit tests (kube/schema-check.test.ts) and the
// integration tests that install such a CRD (test/e2e/refused-apply.test.ts) alike.

export function resourceSchema<S extends object, T extends object = never>(spec: S, status?: T) {
  const envelope = { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
  return { type: 'object', properties: status ? { ...envelope, spec, status } : { ...envelope, spec } };
}
