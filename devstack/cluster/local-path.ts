import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, parseAllDocuments, stringify } from 'yaml';
import { ensureDerivedImage, ensureNodeBaseImage } from '../docker-images.ts';
import { criImageName, BUSYBOX_IMAGE } from '../kubelet-node.ts';
import { resolveTool } from '../../tools/resolve.ts';
import type { Cluster } from './cluster.ts';
import { kubectl } from './kubectl.ts';

// PersistentVolumeClaims in the cluster mode, provisioned for real: Rancher's local-path provisioner
// (built from the Go module proxy), installed from the manifest its module ships, with three changes a
// cluster without a registry needs — its image and its helper pods' image are the ones built here, and
// its StorageClass is the cluster's default (what a claim without `storageClassName` gets, as on a
// cloud cluster). Volumes are folders on the node under NODE_STORAGE_PATH; with one node that folder is
// "shared" by every pod, so the provisioner serves ReadWriteMany too (its `sharedFileSystemPath` mode),
// the access mode ModelDeployment's managed claims ask for by default.

export const LOCAL_PATH_STORAGE_CLASS = 'local-path';
export const LOCAL_PATH_NAMESPACE = 'local-path-storage';
const NODE_STORAGE_PATH = '/opt/local-path-provisioner';
const PROVISIONER_IMAGE = 'kubeairunway-local/local-path-provisioner';
const DEPLOYMENT = 'local-path-provisioner';

interface Manifest {
  kind?: string;
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
  data?: Record<string, string>;
}

/** The provisioner's binary (built by setup or ensureClusterTools) and the manifest its module ships, found beside it. */
function provisionerTool(): { binary: string; manifest: string } {
  const binary = resolveTool('local-path-provisioner')?.path;
  if (!binary) throw new Error('local-path-provisioner is not built: run `npm run tools -- --cluster`');
  return { binary, manifest: join(dirname(binary), 'local-path-storage.yaml') };
}

/**
 * The upstream manifest with this cluster's images, shared-folder mode and default class. Pure: exported
 * for its unit test.
 */
export function localPathManifest(upstreamYaml: string, provisionerImage: string, helperImage: string): Manifest[] {
  const docs = parseAllDocuments(upstreamYaml)
    .map((d) => d.toJSON() as Manifest | null)
    .filter((d): d is Manifest => d !== null);
  const find = (kind: string) => {
    const found = docs.find((d) => d.kind === kind);
    if (!found) throw new Error(`the local-path provisioner's manifest has no ${kind}`);
    return found;
  };
  const container = find('Deployment').spec?.template?.spec?.containers?.[0];
  if (!container) throw new Error("the local-path provisioner's Deployment has no container");
  container.image = provisionerImage;
  const config = find('ConfigMap');
  const data = config.data ?? {};
  data['config.json'] = JSON.stringify({ sharedFileSystemPath: NODE_STORAGE_PATH }, null, 2);
  const helperPod = parse(data['helperPod.yaml'] ?? '') as Manifest & { spec?: { containers?: { image?: string }[] } };
  const helper = helperPod?.spec?.containers?.[0];
  if (!helper) throw new Error("the local-path provisioner's helperPod.yaml has no container");
  helper.image = helperImage;
  data['helperPod.yaml'] = stringify(helperPod);
  config.data = data;
  const storageClass = find('StorageClass');
  storageClass.metadata = { ...storageClass.metadata, annotations: { ...storageClass.metadata?.annotations, 'storageclass.kubernetes.io/is-default-class': 'true' } };
  return docs;
}

/** Builds the provisioner's image, imports it into the node, applies the manifest and waits (bounded) for the rollout. */
export async function installLocalPathStorage(cluster: Pick<Cluster, 'engine' | 'node' | 'kubeconfigPath'>, log: (line: string) => void): Promise<void> {
  const { binary, manifest } = provisionerTool();
  const base = await ensureNodeBaseImage(cluster.engine, log);
  const image = await ensureDerivedImage(cluster.engine, PROVISIONER_IMAGE, [`FROM ${base}`, 'COPY local-path-provisioner /usr/local/bin/local-path-provisioner'], {
    files: { 'local-path-provisioner': binary },
    log,
  });
  const tagged = `${PROVISIONER_IMAGE}:cluster`;
  await cluster.engine.run(['tag', image, tagged], { timeoutMs: 30_000 });
  await cluster.node.importImages([tagged]);
  const objects = localPathManifest(readFileSync(manifest, 'utf8'), criImageName(tagged), criImageName(BUSYBOX_IMAGE));
  await kubectl(cluster.kubeconfigPath, ['apply', '-f', '-'], 60_000, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
  await kubectl(cluster.kubeconfigPath, ['rollout', 'status', `deployment/${DEPLOYMENT}`, '-n', LOCAL_PATH_NAMESPACE, '--timeout=120s'], 130_000);
}
