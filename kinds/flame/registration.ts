// FlameCluster (seed 004) as one module: its watch, workflow, CRD, activities, role and what the CLI,
// metrics and logs make of it.

import { flameClusterCrd } from '../../api/flame/crd.ts';
import { flameClusterStatusView } from './status.ts';
import { flameClusterKind } from '../../watcher/kinds/flame-cluster.ts';
import type { KindModule } from '../kind-module.ts';
import { flameRole } from './role.ts';
import { flameStepOutcomes } from './step-outcomes.ts';

export const flameModule: KindModule = {
  name: 'flame',
  kinds: [
    {
      watched: flameClusterKind,
     
      workflowModule: 'workflows/flame/flame-cluster.ts',
      crd: flameClusterCrd,
      presentation: { noun: 'FlameCluster', owns: 'its pods, Services and ConfigMap', status: flameClusterStatusView },
    },
  ],
  activities: async (ctx) => (await import('../../activities/flame/create-flame-activities.ts')).createFlameActivities(ctx),
  stepOutcomes: flameStepOutcomes,
  offline: { load: async () => (await import('./offline.ts')).flameOffline },
  role: flameRole,
};
