// The chart's values: one list of leaves, each with its default (taken from the install's objects or the
// credential components, never restated), its JSON schema and what it does. values.yaml,
// values.schema.json and the README's table are all printed from this list, so they cannot disagree.

import { stringify } from 'yaml';
import { apiKeyRef, credentialPatch, tlsSecretName } from './credentials.ts';
import { containerOf, installedProviders, isDeployment, sectionOf, splitImage, TEMPORAL_CONFIGMAP, type KubeObject } from './objects.ts';

type Schema = Record<string, unknown>;

export interface ValueLeaf {
  /** Dotted path in values.yaml. */
  path: string;
  default: unknown;
  schema: Schema;
  doc: string;
}

const map = { type: 'object', additionalProperties: { type: 'string' } };

function temporalDefaults(objects: readonly KubeObject[]): { address: string; namespace: string } {
  const cm = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === TEMPORAL_CONFIGMAP) as { data: Record<string, string> } | undefined;
  if (!cm) throw new Error(`the install has no ConfigMap ${TEMPORAL_CONFIGMAP}`);
  return { address: cm.data.TEMPORAL_ADDRESS!, namespace: cm.data.TEMPORAL_NAMESPACE! };
}

/** The image repository the install names; its tag must be the package version's, which the chart takes from appVersion. */
function imageRepository(objects: readonly KubeObject[], version: string): string {
  const images = new Set(objects.filter(isDeployment).map((d) => containerOf(d).image));
  if (images.size !== 1) throw new Error(`the install names ${images.size} images; the chart has one image value`);
  const { repository, tag } = splitImage([...images][0]!);
  if (tag !== `v${version}`) throw new Error(`the install's image tag ${tag} is not v${version} (package.json): run npm run manifests`);
  return repository;
}

function deploymentLeaves(objects: readonly KubeObject[]): ValueLeaf[] {
  return objects.filter(isDeployment).flatMap((d) => {
    const s = sectionOf(d);
    return [
      { path: `${s}.replicas`, default: d.spec.replicas, schema: { type: 'integer', minimum: 0 }, doc: `Pods of the Deployment ${d.metadata.name}.` },
      { path: `${s}.resources`, default: containerOf(d).resources ?? {}, schema: { type: 'object' }, doc: `Requests and limits of the ${s}'s container.` },
    ];
  });
}

export function valueLeaves(objects: readonly KubeObject[], version: string): ValueLeaf[] {
  const temporal = temporalDefaults(objects);
  const providers = installedProviders(objects);
  const apiKey = apiKeyRef(credentialPatch('temporal-api-key'));
  const str = { type: 'string' };
  const bool = { type: 'boolean' };
  return [
    { path: 'temporal.address', default: temporal.address, schema: { ...str, minLength: 1 }, doc: 'The Temporal frontend, host:port, as the pods reach it.' },
    { path: 'temporal.namespace', default: temporal.namespace, schema: { ...str, minLength: 1 }, doc: 'The Temporal namespace the workflows run in.' },
    { path: 'temporal.tls.enabled', default: false, schema: bool, doc: 'Mutual TLS: mount the client certificate and key (tls.crt, tls.key) from the Secret below.' },
    { path: 'temporal.tls.secretName', default: tlsSecretName(credentialPatch('temporal-mtls')), schema: str, doc: 'The kubernetes.io/tls Secret, in the release namespace; create it before installing.' },
    { path: 'temporal.tls.ca', default: false, schema: bool, doc: "Also trust the Secret's ca.crt (a private CA)." },
    { path: 'temporal.apiKey.enabled', default: false, schema: bool, doc: 'An API key (Temporal Cloud), over TLS, from the Secret below.' },
    { path: 'temporal.apiKey.secretName', default: apiKey.name, schema: str, doc: 'The Secret holding the key, in the release namespace.' },
    { path: 'temporal.apiKey.key', default: apiKey.key, schema: str, doc: "The key's name in that Secret." },
    { path: 'image.repository', default: imageRepository(objects, version), schema: { ...str, minLength: 1 }, doc: 'The image every pod runs.' },
    { path: 'image.tag', default: '', schema: str, doc: "The image's tag; empty: v and the chart's appVersion." },
    { path: 'image.pullPolicy', default: '', schema: { enum: ['', 'Always', 'IfNotPresent', 'Never'] }, doc: "Empty: Kubernetes' default." },
    {
      path: 'providers',
      default: providers,
      schema: { type: 'array', uniqueItems: true, items: { enum: providers } },
      doc: "The built-in providers whose workers run in the controller; each listed one's role is bound to it. None (`--set providers=null`, or `providers: []` in a values file): install providers as their own Deployments.",
    },
    ...deploymentLeaves(objects),
    { path: 'nodeSelector', default: {}, schema: map, doc: 'Node labels every pod must match.' },
    { path: 'tolerations', default: [], schema: { type: 'array', items: { type: 'object' } }, doc: 'Taints every pod tolerates.' },
    { path: 'affinity', default: {}, schema: { type: 'object' }, doc: "Every pod's affinity." },
    { path: 'podAnnotations', default: {}, schema: map, doc: "Annotations added to every pod (beside the controller's prometheus.io ones)." },
    { path: 'serviceAccount.annotations', default: {}, schema: map, doc: "Annotations on every ServiceAccount (a cloud's workload identity)." },
  ];
}

/** Leaves grouped into the nested shape of values.yaml (insertion order kept). */
interface Node {
  leaf?: ValueLeaf;
  children: Map<string, Node>;
}

function tree(leaves: readonly ValueLeaf[]): Node {
  const root: Node = { children: new Map() };
  for (const leaf of leaves) {
    let node = root;
    for (const key of leaf.path.split('.')) {
      if (!node.children.has(key)) node.children.set(key, { children: new Map() });
      node = node.children.get(key)!;
    }
    node.leaf = leaf;
  }
  return root;
}

function yamlLines(node: Node, indent: string): string[] {
  return [...node.children].flatMap(([key, child]) => {
    if (!child.leaf) return [`${indent}${key}:`, ...yamlLines(child, `${indent}  `)];
    const text = stringify(child.leaf.default, { lineWidth: 0 }).trimEnd();
    const body = text.includes('\n') ? [`${indent}${key}:`, ...text.split('\n').map((l) => `${indent}  ${l}`)] : [`${indent}${key}: ${text}`];
    return [`${indent}# ${child.leaf.doc}`, ...body];
  });
}

export function valuesYaml(leaves: readonly ValueLeaf[], header: string): string {
  return `${header}\n${yamlLines(tree(leaves), '').join('\n')}\n`;
}

function schemaOf(node: Node): Schema {
  if (node.leaf) return { ...node.leaf.schema, description: node.leaf.doc };
  const properties = Object.fromEntries([...node.children].map(([k, c]) => [k, schemaOf(c)]));
  // No `required`: `--set key=null` drops a key, which must stay possible (`providers=null` for none).
  return { type: 'object', additionalProperties: false, properties };
}

export function valuesSchema(leaves: readonly ValueLeaf[]): string {
  return `${JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', ...schemaOf(tree(leaves)) }, null, 2)}\n`;
}

/** The README's table: one row per leaf, the default as JSON. */
export function valuesTable(leaves: readonly ValueLeaf[]): string {
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const rows = leaves.map((l) => `| \`${l.path}\` | \`${cell(JSON.stringify(l.default))}\` | ${cell(l.doc)} |`);
  return ['| value | default | what it does |', '|---|---|---|', ...rows].join('\n');
}
