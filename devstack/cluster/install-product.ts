import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { NODE_NAMESPACE, SYSTEM_NAMESPACE } from '../../api/constants.ts';
import { buildProjectImage } from '../docker-images.ts';
import type { Cluster } from './cluster.ts';
import { kubectl } from './kubectl.ts';

// The product installed into a cluster-mode stack as a user installs it: the image built from the
// repository's Dockerfile, put into the node's containerd under the name install.yaml gives it (no
// registry here), then `kubectl apply -f deploy/install.yaml` and the rollouts awaited.

const version = (root: string) => (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
/** The image deploy/install.yaml names. */
export const installImage = (root: string) => `ghcr.io/kubeairunway/kubeairunway:v${version(root)}`;
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

/** The overlay installKybernateNode writes and applies: `kubectl delete -k` of it removes the node worker. */
export const kybernateNodeOverlay = (stateDir: string) => join(stateDir, 'kybernate-node-overlay');

/**
 * The Kybernate node worker as deploy/README.md tells users to add it: an overlay (in the state folder)
 * listing the component `deploy/components/kybernate-node`, applied with `kubectl apply -k`; then its
 * DaemonSet's rollout awaited. Its pod mounts the node's `/run/containerd`, where the node keeps its socket.
 */
export async function installKybernateNode(cluster: Cluster, root: string, timeoutMs = 180_000): Promise<void> {
  const overlay = kybernateNodeOverlay(cluster.stateDir);
  mkdirSync(overlay, { recursive: true });
  const component = relative(overlay, join(root, 'deploy', 'components', 'kybernate-node'));
  writeFileSync(join(overlay, 'kustomization.yaml'), `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\ncomponents:\n  - ${component}\n`);
  await kubectl(cluster.kubeconfigPath, ['apply', '-k', overlay], 120_000);
  await kubectl(cluster.kubeconfigPath, ['rollout', 'status', 'daemonset/kubeairunway-node', '-n', NODE_NAMESPACE, `--timeout=${Math.round(timeoutMs / 1000)}s`], timeoutMs + 10_000);
}
