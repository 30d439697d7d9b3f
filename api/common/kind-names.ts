// The names of one kind, declared once: API group, version, kind, plural, singular and short names.
// Everything else follows from them (the apiVersion here; the CRD's name and listKind in
// api/crd/crd-builder.ts), so no kind restates them. Pure (no imports).

export interface KindNamesDeclaration {
  group: string;
  version: string;
  kind: string;
  plural: string;
  singular?: string;
  shortNames?: readonly string[];
}

/** The declaration with its `apiVersion` (`<group>/<version>`). Names are typed `string`, as constants passed around as defaults should be. */
export function kindNames<T extends KindNamesDeclaration>(names: T): T & { apiVersion: string } {
  return { ...names, apiVersion: `${names.group}/${names.version}` };
}
