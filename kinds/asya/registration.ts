// AsyncActor (seed 002) as one module: its watch, workflow, CRD, activities (with the broker's queues,
// on the RabbitMQ its flag names), role and what the offline commands make of it.

import { asyncActorCrd } from '../../api/asya/crd.ts';
import { asyncActorKind } from '../../watcher/kinds/async-actor.ts';
import type { KindModule } from '../kind-module.ts';
import { asyaRole } from './role.ts';

export const asyaModule: KindModule = {
  name: 'asya',
  kinds: [{ watched: asyncActorKind, workflowModule: 'workflows/asya/async-actor.ts', crd: asyncActorCrd }],
  flags: [
    {
      flag: '--amqp-url <url>',
      value: 'text',
      env: 'ASYA_AMQP_URL',
      description: "RabbitMQ for AsyncActors' queues, amqp://user:password@host:port/vhost (without it, actors' queues are not managed)",
    },
  ],
  activities: async (ctx) => {
    const [{ createAsyaActivities }, { connectActorBroker }] = await Promise.all([import('../../activities/asya/create-asya-activities.ts'), import('../../activities/asya/actor-broker.ts')]);
    return createAsyaActivities({ ...ctx, broker: await connectActorBroker(ctx) });
  },
  offline: {
    companions: { kinds: ['Deployment', 'StatefulSet'], next: 'AsyncActor', phrase: 'Deployments or StatefulSets next to AsyncActors' },
    // After ModelDeployments: an actor may bind to one rendered in the same run.
    late: true,
    load: async () => (await import('./offline.ts')).asyaOffline,
  },
  role: asyaRole,
};
