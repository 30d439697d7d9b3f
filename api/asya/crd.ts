// AsyncActor's CustomResourceDefinition: its schema (api/crd/async-actor-schema.ts) with the printer
// columns and category. kinds/asya/registration.ts registers it; `npm run crds` writes it.

import { asyncActorRootSchema } from '../crd/async-actor-schema.ts';
import { customResourceDefinition } from '../crd/crd-builder.ts';
import { ASYNC_ACTOR } from './constants.ts';

/** AsyncActor (seed 002): its own API group, reconciled by the same engine. */
export const asyncActorCrd = customResourceDefinition({
  ...ASYNC_ACTOR,
  category: 'asya',
  schema: asyncActorRootSchema,
  printerColumns: [
    { name: 'Mode', type: 'string', jsonPath: '.status.mode' },
    { name: 'Target', type: 'string', jsonPath: '.status.resolvedTarget', description: 'The workload that runs the actor (Kind/namespace/name)' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas', description: 'Ready replicas' },
    { name: 'Status', type: 'string', jsonPath: '.status.status' },
  ],
});
