import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProjectImage } from '../docker-images.ts';
import type { Cluster } from './cluster.ts';
import { kubectl } from './kubectl.ts';

// The product installed into a cluster-mode stack as a user installs it: the image built from the
// repository's Dockerfile, put into the node's containerd under the name install.yaml gives it (no
// registry here), then `kubectl apply -f deploy/install.yaml` and the rollouts awaited.

const version = (root: string) => (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** The image deploy/install.yaml names. */
export const installImage = (root: string) => `ghcr.io/kubeairunway/kubeairunway:v${version(root)}`;
export const SYSTEM_NAMESPACE = 'kubeairunway-system';
const DEPLOYMENTS = ['kubeairunway-controller', 'kubeairunway-webhook'];

/** Builds the image (the Docker engine's cache makes a rebuild of unchanged sources quick) and imports it into the node. */
export async function loadProductImage(cluster: Cluster, root: string, log: (line: string) => void): Promise<string> {
  const tag = installImage(root);
  await buildProjectImage(cluster.engine, root, tag, log);
  await cluster.node.importImages([tag]);
  return tag;
}

/** `kubectl apply -f deploy/install.yaml`, then waits (bounded) for the controller's and webhook's rollouts. */
export async function installProduct(cluster: Cluster, root: string, timeoutMs = 300_000): Promise<void> {
  await kubectl(cluster.kubeconfigPath, ['apply', '-f', join(root, 'deploy', 'install.yaml')], 120_000);
  for (const name of DEPLOYMENTS) {
    await kubectl(cluster.kubeconfigPath, ['rollout', 'status', `deployment/${name}`, '-n', SYSTEM_NAMESPACE, `--timeout=${Math.round(timeoutMs / 1000)}s`], timeoutMs + 10_000);
  }
}
