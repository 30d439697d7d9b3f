// A CRD's file name under deploy/crds/: <group>_<plural>.yaml, as kubebuilder names them. One rule for
// `npm run crds` (deploy/crd-files.ts) and the registry check (kinds/registry-check.ts).

export function crdFileName(crd: { spec: { group: string; names: { plural: string } } }): string {
  return `${crd.spec.group}_${crd.spec.names.plural}.yaml`;
}
