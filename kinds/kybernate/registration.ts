// The Kybernate kinds (seed 003) as one module: KybernateCheckpoint, KybernateRestore and
// KybernateWorkload share an API group, a role, the node worker that dumps and restores containers
// beside containerd, and the activator that wakes suspended workloads on a request.

import { kybernateCheckpointCrd, kybernateRestoreCrd, kybernateWorkloadCrd } from '../../api/kybernate/crd.ts';
import { kybernateCheckpointKind } from '../../watcher/kinds/kybernate-checkpoint.ts';
import { kybernateRestoreKind } from '../../watcher/kinds/kybernate-restore.ts';
import { kybernateWorkloadKind } from '../../watcher/kinds/kybernate-workload.ts';
import type { KindModule } from '../kind-module.ts';
import { activatorPart, kybernateFlags, nodeWorkerPart } from './parts.ts';
import { kybernateRole } from './role.ts';

export const kybernateModule: KindModule = {
  name: 'kybernate',
  kinds: [
    { watched: kybernateCheckpointKind, workflowModule: 'workflows/kybernate/checkpoint.ts', crd: kybernateCheckpointCrd },
    { watched: kybernateRestoreKind, workflowModule: 'workflows/kybernate/restore.ts', crd: kybernateRestoreCrd },
    { watched: kybernateWorkloadKind, workflowModule: 'workflows/kybernate/workload.ts', crd: kybernateWorkloadCrd },
  ],
  activities: async (ctx) => {
    const [checkpoint, restore, workload] = await Promise.all([
      import('../../activities/kybernate/create-checkpoint-activities.ts'),
      import('../../activities/kybernate/create-restore-activities.ts'),
      import('../../activities/kybernate/create-workload-activities.ts'),
    ]);
    return { ...checkpoint.createCheckpointActivities(ctx), ...restore.createRestoreActivities(ctx), ...workload.createWorkloadActivities(ctx) };
  },
  offline: {
    companions: { kinds: ['Pod'], next: 'KybernateRestore', phrase: 'Pods next to KybernateRestores' },
    load: async () => (await import('./offline.ts')).kybernateOffline,
  },
  role: kybernateRole,
  flags: kybernateFlags,
  parts: [nodeWorkerPart, activatorPart],
};
