// KybernateRestores on the test stack: create, read, delete, wait for their status; the pods they own;
// and the checkpoints they restore from, made by hand: created paused (so their own workflow leaves them
// alone) with the status a checkpoint workflow would have written.
import { PAUSE_ANNOTATION } from '../../api/constants.ts';
import { KYBERNATE_API_VERSION, KYBERNATE_GROUP, KYBERNATE_VERSION, RESTORE_KIND, RESTORE_PLURAL } from '../../api/kybernate/constants.ts';
import type { KybernateCheckpoint, KybernateRestore, KybernateRestoreSpec } from '../../api/kybernate/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { eventuallyMatches, kubeConfig } from './env.ts';
import { checkpointExample, createCheckpoint, patchCheckpointStatus } from './kybernate.ts';

const objects = () => new CustomObjects(kubeConfig());
const RESTORES = { group: KYBERNATE_GROUP, version: KYBERNATE_VERSION, plural: RESTORE_PLURAL };
const PODS = { group: '', version: 'v1', plural: 'pods' };
const MANAGER = 'kybernate-e2e';

export async function createRestore(namespace: string, name: string, spec: Partial<KybernateRestoreSpec>): Promise<KybernateRestore> {
  const body = { apiVersion: KYBERNATE_API_VERSION, kind: RESTORE_KIND, metadata: { name, namespace }, spec };
  return (await objects().apply({ ...RESTORES, namespace, name }, body as unknown as AnyObject, MANAGER)) as unknown as KybernateRestore;
}

export async function getRestore(namespace: string, name: string): Promise<KybernateRestore | undefined> {
  return (await objects().get({ ...RESTORES, namespace, name })) as unknown as KybernateRestore | undefined;
}

export async function deleteRestore(namespace: string, name: string): Promise<void> {
  await objects().delete({ ...RESTORES, namespace, name });
}

export function waitForRestore(namespace: string, name: string, what: string, check: (r: KybernateRestore) => boolean, timeoutMs = 60_000): Promise<KybernateRestore> {
  return eventuallyMatches(`KybernateRestore ${name}: ${what}`, () => getRestore(namespace, name), check, timeoutMs);
}

export async function getPod(namespace: string, name: string): Promise<AnyObject | undefined> {
  return objects().get({ ...PODS, namespace, name });
}

/** A pod of our own, no restore's (it stays Pending: no simulator runs unlabelled pods). */
export async function plainPod(namespace: string, name: string): Promise<AnyObject> {
  return objects().apply({ ...PODS, namespace, name }, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'app', image: 'busybox:local' }] } }, MANAGER);
}

export function restoreReady(r: KybernateRestore) {
  return r.status?.conditions?.find((c) => c.type === 'Ready');
}

/**
 * A KybernateCheckpoint of a pod that does not exist, paused (its workflow then writes nothing and adds
 * no finalizer), with the status given, as if its workflow had written it.
 */
export async function handmadeCheckpoint(namespace: string, name: string, status: object, containerName?: string): Promise<KybernateCheckpoint> {
  const cp = checkpointExample(namespace, name, `${name}-gone`, containerName);
  cp.metadata.annotations = { [PAUSE_ANNOTATION]: 'true' };
  const created = await createCheckpoint(cp);
  await patchCheckpointStatus(namespace, name, status);
  return created;
}
