// One chart template per object of the install (the Namespace and the CRDs aside: see chart.ts), printed
// from the object itself with holes (holes.ts) where a value goes: the release namespace, Helm's usual
// labels, the Temporal settings and credentials, replicas, image, resources, the providers, and the usual
// pod placement and annotations. Every other field is the install's, unchanged.

import { stringify } from 'yaml';
import { credentialPatch, type CredentialPatch } from './credentials.ts';
import { Holes, withBlock } from './holes.ts';
import { SYSTEM_NAMESPACE } from '../../api/constants.ts';
import { containerOf, isDeployment, PROVIDERS_FLAG, providerOf, sectionOf, talksToTemporal, TEMPORAL_CONFIGMAP, type Container, type Deployment, type KubeObject } from './objects.ts';

const NAMESPACE = '{{ .Release.Namespace }}';

/** Lines of YAML for a list's items, under a template condition. */
function itemsIf(condition: string, items: readonly unknown[]): string[] {
  if (items.length === 0) return [];
  return [`{{- if ${condition} }}`, ...stringify(items, { lineWidth: 0 }).trimEnd().split('\n'), '{{- end }}'];
}

function releaseNamespace(o: KubeObject, holes: Holes): void {
  if (o.metadata.namespace === SYSTEM_NAMESPACE) o.metadata.namespace = holes.value(NAMESPACE);
  for (const s of (o as { subjects?: { namespace?: string }[] }).subjects ?? []) {
    if (s.namespace === SYSTEM_NAMESPACE) s.namespace = holes.value(NAMESPACE);
  }
}

function temporalConfig(o: KubeObject, holes: Holes): void {
  const data = o.data as Record<string, string>;
  data.TEMPORAL_ADDRESS = holes.value('{{ .Values.temporal.address | quote }}');
  data.TEMPORAL_NAMESPACE = holes.value('{{ .Values.temporal.namespace | quote }}');
}

/** Env, mounts and volumes of the two credential components, each under its value. */
function credentials(container: Container, pod: Deployment['spec']['template']['spec'], holes: Holes): void {
  const tls = credentialPatch('temporal-mtls');
  const apiKey = credentialPatch('temporal-api-key');
  const tlsVolumes = tls.volumes.map((v) => ({ ...v, secret: { ...v.secret, secretName: holes.value('{{ .Values.temporal.tls.secretName }}') } }));
  const keyEnv = apiKey.env.map((e) => (e.valueFrom ? { ...e, valueFrom: { secretKeyRef: { name: holes.value('{{ .Values.temporal.apiKey.secretName }}'), key: holes.value('{{ .Values.temporal.apiKey.key }}') } } } : e));
  // Only the controller's container carries Temporal credentials, and it has no env of its own to merge with.
  if (container.env) throw new Error(`container ${container.name} has env of its own: teach deploy/helm/templates.ts to append to it`);
  const anyCredential = 'or .Values.temporal.tls.enabled .Values.temporal.apiKey.enabled';
  container[holes.block(() => [`{{- if ${anyCredential} }}`, 'env:', ...itemsIf('.Values.temporal.tls.enabled', tls.env), ...itemsIf('and .Values.temporal.tls.enabled .Values.temporal.tls.ca', caEnv(tls)), ...itemsIf('.Values.temporal.apiKey.enabled', keyEnv), '{{- end }}'])] = null;
  container.volumeMounts = [...(container.volumeMounts ?? []), holes.block(() => itemsIf('.Values.temporal.tls.enabled', tls.volumeMounts))];
  pod.volumes = [...(pod.volumes ?? []), holes.block(() => itemsIf('.Values.temporal.tls.enabled', tlsVolumes))];
}

/** TEMPORAL_TLS_CA beside the certificate, as components/temporal-mtls says to add it for a private CA. */
function caEnv(tls: CredentialPatch): CredentialPatch['env'] {
  const cert = tls.env.find((e) => e.name === 'TEMPORAL_TLS_CERT')?.value;
  if (!cert) throw new Error('components/temporal-mtls sets no TEMPORAL_TLS_CERT');
  return [{ name: 'TEMPORAL_TLS_CA', value: cert.replace(/[^/]+$/, 'ca.crt') }];
}

/** The pod's own annotations, the checksum of the Temporal values where it reads them, then podAnnotations. */
function podAnnotations(d: Deployment, holes: Holes): void {
  const metadata = d.spec.template.metadata;
  const annotations = { ...metadata.annotations };
  // An upgrade that moves the controller to another Temporal server must restart it: the ConfigMap is read at start.
  if (talksToTemporal(d)) annotations['checksum/temporal'] = holes.value('{{ .Values.temporal | toJson | sha256sum }}');
  if (Object.keys(annotations).length === 0) {
    // No annotations of its own: the whole map appears only with podAnnotations set.
    (metadata as Record<string, unknown>)[holes.block(withBlock('annotations', '.Values.podAnnotations'))] = null;
    return;
  }
  annotations[holes.block((column) => ['{{- with .Values.podAnnotations }}', `{{- toYaml . | nindent ${column} }}`, '{{- end }}'])] = null as unknown as string;
  metadata.annotations = annotations;
}

function deployment(d: Deployment, holes: Holes): void {
  const values = `.Values.${sectionOf(d)}`;
  const pod = d.spec.template;
  const container = containerOf(d);
  d.spec.replicas = holes.value(`{{ ${values}.replicas }}`) as unknown as number;
  container.image = holes.value('{{ include "kubeairunway.image" . | quote }}');
  container[holes.block(() => ['{{- with .Values.image.pullPolicy }}', 'imagePullPolicy: {{ . }}', '{{- end }}'])] = null;
  delete container.resources;
  container[holes.block((column) => ['resources:', `  {{- toYaml ${values}.resources | nindent ${column + 2} }}`])] = null;
  container.args = (container.args ?? []).map((a) =>
    a.startsWith(PROVIDERS_FLAG) ? holes.block(() => ['{{- with .Values.providers }}', `- ${PROVIDERS_FLAG}{{ join "," . }}`, '{{- end }}']) : a,
  );
  podAnnotations(d, holes);
  if (talksToTemporal(d)) credentials(container, pod.spec, holes);
  for (const key of ['nodeSelector', 'tolerations', 'affinity']) pod.spec[holes.block(withBlock(key, `.Values.${key}`))] = null;
}

export interface Template {
  file: string;
  text: string;
}

/** The template of one object of the install. */
export function template(source: KubeObject, providers: readonly string[], header: string): Template {
  const o = structuredClone(source);
  const holes = new Holes();
  releaseNamespace(o, holes);
  o.metadata.labels = { ...o.metadata.labels, [holes.block((column) => [`{{- include "kubeairunway.labels" . | nindent ${column} }}`])]: null as unknown as string };
  if (o.kind === 'ConfigMap' && o.metadata.name === TEMPORAL_CONFIGMAP) temporalConfig(o, holes);
  if (o.kind === 'ServiceAccount') (o.metadata as Record<string, unknown>)[holes.block(withBlock('annotations', '.Values.serviceAccount.annotations'))] = null;
  if (isDeployment(o)) deployment(o, holes);
  let text = `${header}\n${holes.fill(stringify(o, { lineWidth: 0 }))}`;
  const provider = providerOf(source, providers);
  // The header inside the condition: a provider left out renders to nothing, not to a lone comment.
  if (provider) text = `{{- if has ${JSON.stringify(provider)} .Values.providers }}\n${text}{{- end }}\n`;
  return { file: `templates/${o.kind.toLowerCase()}-${o.metadata.name}.yaml`, text };
}
