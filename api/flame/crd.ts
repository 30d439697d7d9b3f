// FlameCluster's CustomResourceDefinition: its schema (api/crd/flame-cluster-schema.ts) with the printer
// columns and category. kinds/flame/registration.ts registers it; `npm run crds` writes it.

import { customResourceDefinition } from '../crd/crd-builder.ts';
import { flameClusterRootSchema } from '../crd/flame-cluster-schema.ts';
import { FLAME_CLUSTER } from './constants.ts';

/** FlameCluster (seed 004): its own API group, reconciled by the same engine. */
export const flameClusterCrd = customResourceDefinition({
  ...FLAME_CLUSTER,
  category: 'flame',
  schema: flameClusterRootSchema,
  printerColumns: [
    { name: 'State', type: 'string', jsonPath: '.status.state' },
    { name: 'Ready Executors', type: 'integer', jsonPath: '.status.executorManager.ready', description: 'Ready executor manager pods' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.executorManager.replicas', description: 'Requested executor manager pods' },
  ],
});
