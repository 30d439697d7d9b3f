// AsyncActors on the test stack: create, read, delete, wait for status; the workloads they create or
// bind to, as their owner sees them (its own writes under its own field manager); the broker's view of
// queues.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ASYA_GROUP, ASYA_VERSION, ASYNC_ACTOR_KIND, ASYNC_ACTOR_PLURAL, KEDA_GROUP, KEDA_VERSION, SCALED_OBJECT_PLURAL } from '../../api/asya/constants.ts';
import type { AsyncActor } from '../../api/asya/types.ts';
import { openBroker } from '../../broker/broker.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { CustomObjects, objectPath, type AnyObject, type ResourceRef } from '../../kube/custom-objects.ts';
import { KubeRest } from '../../kube/rest.ts';
import type { AsyncActorView } from '../../workflows/asya/async-actor.ts';
import { viewQuery } from '../../workflows/engine/definitions.ts';
import { eventually, kubeConfig, stackInfo, temporalClient } from './env.ts';

const objects = () => new CustomObjects(kubeConfig());
const ACTORS = { group: ASYA_GROUP, version: ASYA_VERSION, plural: ASYNC_ACTOR_PLURAL };
export const DEPLOYMENTS = { group: 'apps', version: 'v1', plural: 'deployments' };
export const SCALED_OBJECTS = { group: KEDA_GROUP, version: KEDA_VERSION, plural: SCALED_OBJECT_PLURAL };
export const CONFIG_MAPS = { group: '', version: 'v1', plural: 'configmaps' };
export const WORKSPACES = { group: 'kaito.sh', version: 'v1beta1', plural: 'workspaces' };
/** Who writes the spec of the AsyncActors the tests create. */
const ACTOR_MANAGER = 'asya-e2e';

type Obj = Record<string, unknown>;
export interface Container {
  name: string;
  image?: string;
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: Obj }[];
  volumeMounts?: Obj[];
  [field: string]: unknown;
}
export interface PodTemplate {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: { containers?: Container[]; volumes?: (Obj & { name: string })[]; [field: string]: unknown };
}

/** An example manifest from examples/, renamed into a namespace. */
export function actorExample(file: string, namespace: string, name: string): AsyncActor {
  const actor = parse(readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8')) as AsyncActor;
  actor.metadata = { name, namespace };
  return actor;
}

/** A binding actor (from the binding example) pointed at `workloadRef`, forwarding to `targetURL`. */
export function bindingActor(namespace: string, name: string, workloadRef: AsyncActor['spec']['workloadRef'], targetURL?: string): AsyncActor {
  const actor = actorExample('async-actor-binding.yaml', namespace, name);
  actor.spec.workloadRef = workloadRef;
  if (targetURL) actor.spec.runtime = { ...actor.spec.runtime!, targetURL };
  return actor;
}

/** Creates or updates (server-side apply of the whole spec) an actor. */
export async function createActor(actor: AsyncActor): Promise<AsyncActor> {
  return (await objects().apply({ ...ACTORS, namespace: actor.metadata.namespace!, name: actor.metadata.name }, actor as unknown as AnyObject, ACTOR_MANAGER)) as unknown as AsyncActor;
}

export interface Cause {
  field?: string;
  reason?: string;
  message?: string;
}

/** What the API server answers to creating `actor` when it refuses it: the status code and each cause. */
export async function rejectionOf(actor: AsyncActor): Promise<{ code: number; causes: Cause[] }> {
  try {
    await objects().apply({ ...ACTORS, namespace: actor.metadata.namespace!, name: actor.metadata.name }, actor as unknown as AnyObject, ACTOR_MANAGER);
  } catch (err) {
    const { code, body } = err as { code?: number; body?: { details?: { causes?: Cause[] } } };
    return { code: code ?? 0, causes: body?.details?.causes ?? [] };
  }
  throw new Error(`AsyncActor ${actor.metadata.name} was accepted`);
}

export async function getActor(namespace: string, name: string): Promise<AsyncActor | undefined> {
  return (await objects().get({ ...ACTORS, namespace, name })) as unknown as AsyncActor | undefined;
}

export async function deleteActor(namespace: string, name: string): Promise<void> {
  await objects().delete({ ...ACTORS, namespace, name });
}

export async function waitForActor(namespace: string, name: string, what: string, check: (a: AsyncActor) => boolean, timeoutMs = 60_000): Promise<AsyncActor> {
  let last: AsyncActor | undefined;
  try {
    return await eventually(`AsyncActor ${name}: ${what}`, async () => {
      last = await getActor(namespace, name);
      return last && check(last) ? last : undefined;
    }, timeoutMs);
  } catch (err) {
    throw new Error(`${(err as Error).message}\nlast status: ${JSON.stringify(last?.status ?? null)}`);
  }
}

export async function waitActorGone(namespace: string, name: string, timeoutMs = 60_000): Promise<void> {
  await eventually(`AsyncActor ${name} to be deleted`, async () => (await getActor(namespace, name)) === undefined, timeoutMs);
}

export const conditionOf = (actor: AsyncActor, type: string) => actor.status?.conditions?.find((c) => c.type === type);

/** A check for waitForActor: condition `type` has `status` (and `reason`, when given). */
export const hasCondition = (type: string, status: 'True' | 'False', reason?: string) => (actor: AsyncActor) => {
  const c = conditionOf(actor, type);
  return c?.status === status && (reason === undefined || c.reason === reason);
};

export async function getDeployment(namespace: string, name: string): Promise<AnyObject | undefined> {
  return objects().get({ ...DEPLOYMENTS, namespace, name });
}

export async function getScaledObject(namespace: string, name: string): Promise<AnyObject | undefined> {
  return objects().get({ ...SCALED_OBJECTS, namespace, name });
}

export async function getConfigMap(namespace: string, name: string): Promise<AnyObject | undefined> {
  return objects().get({ ...CONFIG_MAPS, namespace, name });
}

export const podTemplate = (workload: AnyObject | undefined): PodTemplate => ((workload?.spec as { template?: PodTemplate } | undefined)?.template ?? {});

export const containersOf = (workload: AnyObject | undefined): Container[] => podTemplate(workload).spec?.containers ?? [];

export const containerNames = (workload: AnyObject | undefined) => containersOf(workload).map((c) => c.name);

export const volumeNames = (workload: AnyObject | undefined) => (podTemplate(workload).spec?.volumes ?? []).map((v) => v.name);

export const containerOf = (workload: AnyObject | undefined, name: string): Container | undefined => containersOf(workload).find((c) => c.name === name);

export const envOf = (container: Container | undefined, name: string) => container?.env?.find((e) => e.name === name)?.value;

/** Both Asya containers and all three volumes are in the pod template. */
export const isInjected = (workload: AnyObject | undefined) =>
  ['asya-runtime', 'asya-sidecar'].every((n) => containerNames(workload).includes(n)) && ['socket-dir', 'tmp', 'asya-runtime'].every((n) => volumeNames(workload).includes(n));

/** Labels and annotations of the workload and its pod template that are Asya's (`asya.sh/…`). */
export function asyaMarks(workload: AnyObject | undefined): string[] {
  const t = podTemplate(workload).metadata ?? {};
  const m = workload?.metadata ?? {};
  return [m.labels, m.annotations, t.labels, t.annotations].flatMap((map) => Object.keys(map ?? {})).filter((k) => k.startsWith('asya.sh/'));
}

/** The pod-template containers field manager `manager` owns, by name (from metadata.managedFields). */
export function containersManagedBy(workload: AnyObject | undefined, manager: string): string[] {
  const entries = ((workload?.metadata as { managedFields?: { manager?: string; operation?: string; fieldsV1?: Obj }[] } | undefined)?.managedFields ?? []).filter((e) => e.manager === manager);
  const names = new Set<string>();
  for (const entry of entries) {
    const containers = (((((entry.fieldsV1?.['f:spec'] as Obj | undefined)?.['f:template'] as Obj | undefined)?.['f:spec'] as Obj | undefined)?.['f:containers'] ?? {}) as Obj);
    for (const key of Object.keys(containers)) {
      if (key.startsWith('k:')) names.add((JSON.parse(key.slice(2)) as { name: string }).name);
    }
  }
  return [...names].sort();
}

/** Field managers of the workload, with their operation (Apply or Update). */
export function managersOf(workload: AnyObject | undefined): { manager?: string; operation?: string }[] {
  return ((workload?.metadata as { managedFields?: { manager?: string; operation?: string }[] } | undefined)?.managedFields ?? []).map(({ manager, operation }) => ({ manager, operation }));
}

/** A plain Deployment of one container `server`, as a user (or another controller) would write it. */
export function plainDeployment(namespace: string, name: string, containers: Container[] = [{ name: 'server', image: 'nginx:1.27' }]): AnyObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace },
    spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers } } },
  };
}

/** Applies `body` under `fieldManager` (the owner's own field manager). */
export async function applyAs(resource: Omit<ResourceRef, 'name' | 'namespace'>, body: AnyObject, fieldManager: string): Promise<AnyObject> {
  return objects().apply({ ...resource, namespace: body.metadata!.namespace!, name: body.metadata!.name! }, body, fieldManager);
}

/**
 * The owner rewriting its Deployment's containers to what it wants, as a controller with an update
 * does: a JSON patch replacing the whole list, under the owner's field manager.
 */
export async function replaceContainers(namespace: string, name: string, containers: Container[], fieldManager: string): Promise<AnyObject> {
  return new KubeRest(kubeConfig()).request<AnyObject>('PATCH', objectPath({ ...DEPLOYMENTS, namespace, name }), {
    body: [{ op: 'replace', path: '/spec/template/spec/containers', value: containers }],
    contentType: 'application/json-patch+json',
    query: { fieldManager },
  });
}

/** The actor workflow's live view (its `view` query). */
export async function actorView(actor: AsyncActor): Promise<AsyncActorView> {
  const { client, connection } = await temporalClient();
  try {
    const ref = { namespace: actor.metadata.namespace!, name: actor.metadata.name, uid: actor.metadata.uid! };
    return (await client.workflow.getHandle(workflowIdFor(ASYNC_ACTOR_KIND, ref)).query(viewQuery)) as AsyncActorView;
  } finally {
    await connection.close();
  }
}

/**
 * Waits until the actor's workflow sits idle between passes (no pass ran for a moment). An owner's
 * write is then seen by a pass of its own, rather than landing between the read and the apply of a
 * pass already running (which would put our containers back without seeing a conflict). The stack runs
 * no deployment controller, so nothing else writes the Deployment meanwhile.
 */
export async function waitQuiet(actor: AsyncActor): Promise<void> {
  await eventually(`AsyncActor ${actor.metadata.name} idle`, async () => {
    const before = await actorView(actor);
    await new Promise((r) => setTimeout(r, 500));
    const after = await actorView(actor);
    return after.step === 'idle' && after.passes === before.passes;
  });
}

/** Queue depth on the stack's broker, undefined when the queue does not exist. */
export async function queueDepth(name: string): Promise<number | undefined> {
  const broker = await openBroker(stackInfo().amqpUrl);
  try {
    return await broker.queueDepth(name);
  } finally {
    await broker.close();
  }
}
