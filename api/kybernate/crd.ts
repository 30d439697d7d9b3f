// The Kybernate kinds' CustomResourceDefinitions: their schemas (api/crd/kybernate-*-schema.ts) with the
// printer columns. kinds/kybernate/registration.ts registers all three; `npm run crds` writes them.

import { customResourceDefinition } from '../crd/crd-builder.ts';
import { checkpointRootSchema } from '../crd/kybernate-checkpoint-schema.ts';
import { restoreRootSchema } from '../crd/kybernate-restore-schema.ts';
import { workloadRootSchema } from '../crd/kybernate-workload-schema.ts';
import { CHECKPOINT, KYBERNATE_CATEGORY, RESTORE, WORKLOAD } from './constants.ts';

/** The Kybernate kinds (seed 003): namespaced in kybernate.io, listed together by `kubectl get kybernate`. */
export const kybernateCheckpointCrd = customResourceDefinition({
  ...CHECKPOINT,
  category: KYBERNATE_CATEGORY,
  schema: checkpointRootSchema,
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Pod', type: 'string', jsonPath: '.spec.podName' },
    { name: 'Size', type: 'string', jsonPath: '.status.checkpointSize' },
    { name: 'Node', type: 'string', jsonPath: '.status.nodeName', priority: 1 },
    { name: 'Ref', type: 'string', jsonPath: '.status.checkpointRef', description: 'The checkpoint image', priority: 1 },
  ],
});

export const kybernateRestoreCrd = customResourceDefinition({
  ...RESTORE,
  category: KYBERNATE_CATEGORY,
  schema: restoreRootSchema,
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Checkpoint', type: 'string', jsonPath: '.spec.checkpointRef' },
    { name: 'Pod', type: 'string', jsonPath: '.status.restoredPodName', description: 'The restore pod' },
    { name: 'Image', type: 'string', jsonPath: '.spec.checkpointImage', priority: 1 },
  ],
});

export const kybernateWorkloadCrd = customResourceDefinition({
  ...WORKLOAD,
  category: KYBERNATE_CATEGORY,
  schema: workloadRootSchema,
  printerColumns: [
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Pod', type: 'string', jsonPath: '.status.podName' },
    { name: 'Checkpoints', type: 'integer', jsonPath: '.status.suspendedCheckpoints', description: 'Suspends that ended in a checkpoint' },
    { name: 'Last Activity', type: 'date', jsonPath: '.status.lastActivityTime' },
  ],
});
