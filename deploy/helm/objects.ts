// The objects deploy/install.yaml is made of, as the chart generator reads them, and the few facts about
// them the chart's values are taken from (so no default is kept by hand beside the install).

import { parseAllDocuments } from 'yaml';

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

export interface Container {
  name: string;
  image: string;
  args?: string[];
  env?: unknown[];
  envFrom?: { configMapRef?: { name: string } }[];
  resources?: Record<string, unknown>;
  volumeMounts?: unknown[];
  [field: string]: unknown;
}

export interface PodTemplate {
  metadata: { labels?: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; volumes?: unknown[]; [field: string]: unknown };
}

export interface Deployment extends KubeObject {
  spec: { replicas: number; template: PodTemplate; [field: string]: unknown };
}

/** The ConfigMap that tells every Temporal client of the install where the server is. */
export const TEMPORAL_CONFIGMAP = 'kubeairunway-temporal';
/** The flag that names the providers whose workers the controller runs. */
export const PROVIDERS_FLAG = '--providers=';

export function parseObjects(text: string): KubeObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as KubeObject | null)
    .filter((o): o is KubeObject => o !== null);
}

export const isDeployment = (o: KubeObject): o is Deployment => o.kind === 'Deployment';

/** A Deployment's one container (the install runs one per pod; the chart's image value assumes so). */
export function containerOf(d: Deployment): Container {
  const containers = d.spec.template.spec.containers;
  if (containers.length !== 1) throw new Error(`Deployment ${d.metadata.name} has ${containers.length} containers; the chart expects one`);
  return containers[0]!;
}

/** Whether the pod talks to Temporal: it reads the Temporal ConfigMap (the webhook does not). */
export function talksToTemporal(d: Deployment): boolean {
  return (containerOf(d).envFrom ?? []).some((e) => e.configMapRef?.name === TEMPORAL_CONFIGMAP);
}

/** The values section of a Deployment: its name without the `kubeairunway-` prefix (controller, webhook). */
export function sectionOf(d: Deployment): string {
  return d.metadata.name.replace(/^kubeairunway-/, '');
}

/** The providers the install's controller runs, in its flag's order. */
export function installedProviders(objects: readonly KubeObject[]): string[] {
  const args = objects.filter(isDeployment).flatMap((d) => containerOf(d).args ?? []);
  const flag = args.find((a) => a.startsWith(PROVIDERS_FLAG));
  return flag ? flag.slice(PROVIDERS_FLAG.length).split(',') : [];
}

/** The provider an object belongs to: a provider's ClusterRole, or the binding of one. */
export function providerOf(o: KubeObject, providers: readonly string[]): string | undefined {
  const role = o.kind === 'ClusterRole' ? o.metadata.name : o.kind === 'ClusterRoleBinding' ? (o as { roleRef?: { name: string } }).roleRef?.name : undefined;
  return providers.find((p) => role === `kubeairunway-provider-${p}`);
}

/** The image's repository and tag (`repo:tag`, the repository may hold a registry port). */
export function splitImage(image: string): { repository: string; tag: string } {
  const at = image.lastIndexOf(':');
  if (at < 0 || image.slice(at).includes('/')) throw new Error(`image ${image} has no tag`);
  return { repository: image.slice(0, at), tag: image.slice(at + 1) };
}
