// The Kybernate node of the local stack: the private Docker engine (devstack/docker.ts) and on it the node
// container (devstack/kybernate-node.ts: trixie's containerd, runc and CRIU 4), checked with `criu check`.
// `npm run dev -- --kybernate-node` runs the product's node worker on its containerd; the tests use it
// the same way (test/support/node-runtimes.ts). Needs root (dockerd); the images are built once.
import { join } from 'node:path';
import { dockerUnavailable, startDocker, type DockerEngine } from './docker.ts';
import { startKybernateNode, type KybernateNode } from './kybernate-node.ts';

export interface RunningNode {
  node: KybernateNode;
  engine: DockerEngine;
  /** `criu --version` in the node container. */
  criuVersion: string | undefined;
  /** Stops the node container, then the engine if this process started it (one another process started keeps running). */
  stop(): Promise<void>;
}

/**
 * Why the node cannot start here, or undefined: the engine's reasons (root, dockerd, its containerd and
 * runc). A node image not built yet also needs debootstrap, which its build says when it is missing.
 */
export function nodeUnavailable(): string | undefined {
  return dockerUnavailable();
}

/** Starts engine and node with the node's state in `<dir>/containerd`; a node whose CRIU fails `criu check` is stopped again and refused. */
export async function startNodeWithEngine(dir: string, opts: { log?: (line: string) => void; name?: string } = {}): Promise<RunningNode> {
  const unavailable = nodeUnavailable();
  if (unavailable) throw new Error(unavailable);
  const log = opts.log;
  let engine: DockerEngine | undefined;
  let node: KybernateNode | undefined;
  try {
    engine = await startDocker(log ? { log } : {});
    node = await startKybernateNode(engine, dir, { ...(log ? { log } : {}), ...(opts.name ? { name: opts.name } : {}) });
    const criu = await node.criu();
    if (!criu.works) throw new Error(criu.reason);
    const [ownNode, ownEngine] = [node, engine];
    return {
      node,
      engine,
      criuVersion: criu.version,
      async stop() {
        await ownNode.stop();
        await ownEngine.stop();
      },
    };
  } catch (err) {
    await node?.stop().catch(() => undefined);
    await engine?.stop().catch(() => undefined);
    throw err;
  }
}

/** Where the dev stack keeps its node's state: the node container mounts it at the same path. */
export function devNodeDir(stateDir: string): string {
  return join(stateDir, 'kybernate-node');
}
