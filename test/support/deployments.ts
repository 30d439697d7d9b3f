import { readFileSync } from 'node:fs';
import { CoreV1Api } from '@kubernetes/client-node';
import { parse } from 'yaml';
import { GROUP, MODEL_DEPLOYMENT_PLURAL, VERSION } from '../../api/constants.ts';
import type { ModelDeployment } from '../../api/types.ts';
import { CustomObjects, type AnyObject } from '../../kube/custom-objects.ts';
import { eventually, kubeConfig, uniqueName } from './env.ts';

const objects = () => new CustomObjects(kubeConfig());
const mdRef = (namespace: string, name: string) => ({ group: GROUP, version: VERSION, plural: MODEL_DEPLOYMENT_PLURAL, namespace, name });

/** A ModelDeployment from one of the repository's examples, placed in the test's namespace. */
export function example(file: string, namespace: string, patch: (md: ModelDeployment) => void = () => {}): ModelDeployment {
  const md = parse(readFileSync(new URL(`../../examples/${file}`, import.meta.url), 'utf8')) as ModelDeployment;
  md.metadata = { ...md.metadata, namespace };
  patch(md);
  return md;
}

export async function createDeployment(md: ModelDeployment): Promise<ModelDeployment> {
  return (await objects().apply(mdRef(md.metadata.namespace!, md.metadata.name!), md as unknown as AnyObject, 'e2e-test')) as unknown as ModelDeployment;
}

export async function getDeployment(namespace: string, name: string): Promise<ModelDeployment | undefined> {
  return (await objects().get(mdRef(namespace, name))) as unknown as ModelDeployment | undefined;
}

export async function patchDeployment(namespace: string, name: string, patch: object): Promise<void> {
  await objects().mergePatch(mdRef(namespace, name), patch);
}

export async function deleteDeployment(namespace: string, name: string): Promise<void> {
  await objects().delete(mdRef(namespace, name));
}

export async function waitForDeployment(namespace: string, name: string, what: string, check: (md: ModelDeployment) => boolean, timeoutMs = 60_000): Promise<ModelDeployment> {
  let last: ModelDeployment | undefined;
  try {
    return await eventually(`${namespace}/${name}: ${what}`, async () => {
      last = await getDeployment(namespace, name);
      return last && check(last) ? last : undefined;
    }, timeoutMs);
  } catch (err) {
    // Say what the object looked like: a bare timeout is no help when a reconcile step went wrong.
    throw new Error(`${(err as Error).message}\nlast status: ${JSON.stringify(last?.status ?? null)}\nfinalizers: ${JSON.stringify(last?.metadata.finalizers ?? null)}`);
  }
}

export const phaseIs = (phase: string) => (md: ModelDeployment) => md.status?.phase === phase;

export async function waitGone(namespace: string, name: string, timeoutMs = 60_000): Promise<void> {
  await eventually(`${namespace}/${name} to be deleted`, async () => (await getDeployment(namespace, name)) === undefined, timeoutMs);
}

export async function getObject(ref: { group: string; version: string; plural: string; namespace: string; name: string }): Promise<AnyObject | undefined> {
  return objects().get(ref);
}

export function condition(md: ModelDeployment, type: string) {
  return md.status?.conditions?.find((c) => c.type === type);
}

/** Events recorded for one object, by reason. */
export async function eventsFor(namespace: string, name: string): Promise<{ reason: string; type: string; message: string; count: number }[]> {
  const core = kubeConfig().makeApiClient(CoreV1Api);
  const list = await core.listNamespacedEvent({ namespace, fieldSelector: `involvedObject.name=${name}` });
  return list.items.map((e) => ({ reason: e.reason ?? '', type: e.type ?? '', message: e.message ?? '', count: e.count ?? 1 }));
}

export const UPSTREAM = {
  workspace: { group: 'kaito.sh', version: 'v1beta1', plural: 'workspaces' },
  // The version the controller renders where the CRD serves it (the stack's Dynamo CRD stores v1beta1).
  dgd: { group: 'nvidia.com', version: 'v1beta1', plural: 'dynamographdeployments' },
  rayservice: { group: 'ray.io', version: 'v1', plural: 'rayservices' },
} as const;

/** A deployment of seed Example 1 (Dynamo) under a fresh name, created and waited for until Running. */
export async function runningDeployment(namespace: string, prefix: string, patch: (md: ModelDeployment) => void = () => {}): Promise<ModelDeployment> {
  const name = uniqueName(prefix);
  await createDeployment(
    example('gpu-vllm-dynamo.yaml', namespace, (m) => {
      m.metadata.name = name;
      patch(m);
    }),
  );
  return waitForDeployment(namespace, name, 'Running', phaseIs('Running'));
}
