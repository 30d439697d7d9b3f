// Fixtures for AsyncActor tests: the seed's two examples (ADR-001, Option 2) made complete, as the API
// server would hand them out, and variations of them.

import { ASYA_API_VERSION, ASYNC_ACTOR_KIND } from './constants.ts';
import type { AsyncActor } from './types.ts';
import { validateAsyncActor } from './validate.ts';

export const ACTOR_UID = '0b5c8a1e-3d4f-4e6a-9b7c-2a1d3e4f5a6b';

/** The seed's standalone actor: a Deployment from the user's template, scaled by KEDA. */
export function standaloneSpec(): Record<string, unknown> {
  return {
    transport: 'rabbitmq',
    scaling: { enabled: true, minReplicas: 0, maxReplicas: 10 },
    workload: {
      kind: 'Deployment',
      template: {
        metadata: { labels: { app: 'text-processor' } },
        spec: {
          containers: [
            {
              name: 'asya-runtime',
              image: 'python:3.13',
              env: [{ name: 'ASYA_HANDLER', value: 'handlers.process' }],
              resources: { requests: { cpu: '250m', memory: '256Mi' } },
            },
          ],
        },
      },
    },
  };
}

/** The seed's binding actor: bound to KAITO's phi-3 Workspace through a REST adapter. */
export function bindingSpec(): Record<string, unknown> {
  return {
    transport: 'rabbitmq',
    workloadRef: { apiVersion: 'kaito.sh/v1beta1', kind: 'Workspace', name: 'phi-3-embeddings' },
    runtime: {
      image: 'asya-rest-adapter:latest',
      handler: 'adapters.kaito_openai.forward',
      targetService: { name: 'phi-3-embeddings', port: 80, path: '/v1/chat/completions' },
    },
    scaling: { enabled: true, minReplicas: 0, maxReplicas: 100 },
  };
}

/** An AsyncActor manifest around a spec, as a plain object (what the API server or a YAML file holds). */
export function actorObject(spec: unknown, overrides: { name?: string; namespace?: string | null; uid?: string | null; generation?: number } = {}): Record<string, unknown> {
  const namespace = overrides.namespace === undefined ? 'ml' : overrides.namespace;
  const uid = overrides.uid === undefined ? ACTOR_UID : overrides.uid;
  return {
    apiVersion: ASYA_API_VERSION,
    kind: ASYNC_ACTOR_KIND,
    metadata: {
      name: overrides.name ?? 'text-processor',
      ...(namespace !== null ? { namespace } : {}),
      ...(uid !== null ? { uid } : {}),
      generation: overrides.generation ?? 3,
    },
    spec,
  };
}

/** A validated (defaulted) actor; throws when the fixture is invalid, which is a bug in the test. */
export function actor(spec: unknown, overrides: Parameters<typeof actorObject>[1] = {}): AsyncActor {
  const result = validateAsyncActor(actorObject(spec, overrides));
  if (!result.valid) throw new Error(`invalid fixture: ${result.message}`);
  return result.actor;
}

export function standaloneActor(change: (spec: Record<string, unknown>) => void = () => {}): AsyncActor {
  const spec = standaloneSpec();
  change(spec);
  return actor(spec);
}

export function bindingActor(change: (spec: Record<string, unknown>) => void = () => {}, name = 'phi3-async'): AsyncActor {
  const spec = bindingSpec();
  change(spec);
  return actor(spec, { name });
}
