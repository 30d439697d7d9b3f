// AsyncActor (seed 002) as one module: its watch, workflow, CRD, activities (with the broker's queues),
// role and what the offline commands make of it.

import { asyncActorCrd } from '../../api/asya/crd.ts';
import { asyncActorKind } from '../../watcher/kinds/async-actor.ts';
import type { KindModule } from '../kind-module.ts';
import { asyaRole } from './role.ts';

export const asyaModule: KindModule = {
  name: 'asya',
  kinds: [{ watched: asyncActorKind, workflow: 'asyncActorWorkflow', workflowModule: 'workflows/asya/async-actor.ts', crd: asyncActorCrd }],
  activities: async (ctx) => (await import('../../activities/asya/create-asya-activities.ts')).createAsyaActivities(ctx),
  offline: {
    companions: { kinds: ['Deployment', 'StatefulSet'], next: 'AsyncActor', phrase: 'Deployments or StatefulSets next to AsyncActors' },
    // After ModelDeployments: an actor may bind to one rendered in the same run.
    late: true,
    load: async () => (await import('./offline.ts')).asyaOffline,
  },
  role: asyaRole,
};
