// One CustomResourceDefinition from what is the kind's own: its names (declared with its constants), its
// schema, subresources and printer columns. Every kind serves one version, stored, and lists its age last.

import type { KindNamesDeclaration } from '../common/kind-names.ts';
import type { CustomResourceDefinition, JSONSchemaProps, PrinterColumn } from './schema-types.ts';

type Version = CustomResourceDefinition['spec']['versions'][number];

/** The kind's names (api/common/kind-names.ts) and what its CRD adds to them. */
export interface KindDeclaration extends KindNamesDeclaration {
  singular: string;
  /** `kubectl get <category>` lists every kind of the category. */
  category: string;
  scope?: CustomResourceDefinition['spec']['scope'];
  schema: JSONSchemaProps;
  /** The status subresource when not given: status is written by the controller only, apart from the spec. */
  subresources?: Version['subresources'];
  /** Before the Age column every kind ends with. */
  printerColumns: PrinterColumn[];
}

const AGE: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

export function customResourceDefinition(d: KindDeclaration): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${d.plural}.${d.group}` },
    spec: {
      group: d.group,
      names: {
        kind: d.kind,
        listKind: `${d.kind}List`,
        plural: d.plural,
        singular: d.singular,
        ...(d.shortNames ? { shortNames: [...d.shortNames] } : {}),
        categories: [d.category],
      },
      scope: d.scope ?? 'Namespaced',
      versions: [
        {
          name: d.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: d.schema },
          subresources: d.subresources ?? { status: {} },
          additionalPrinterColumns: [...d.printerColumns, AGE],
        },
      ],
    },
  };
}
