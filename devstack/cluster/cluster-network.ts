import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createClusterNetns, clusterNetworkUnavailable, netnsName, removeClusterNetns } from './network.ts';
import { ensureClusterPki, type ClusterPki } from './pki.ts';
import { hostRelay, startRelayInside, type HostRelay } from './relay.ts';
import type { ManagedProcess } from '../process.ts';

/** A cluster-mode stack's network namespace, certificates and relay (the host's way in). */
export interface ClusterNetwork {
  netns: string;
  pki: ClusterPki;
  relay: HostRelay;
  /** Starts the relay's inside half (the stack supervises it like its servers). */
  startRelayInside(): Promise<ManagedProcess>;
  /** Closes the host's listeners and removes the namespace; the stack's processes must be stopped first. */
  stop(): Promise<void>;
}

export async function startClusterNetwork(stateDir: string, log: (line: string) => void): Promise<ClusterNetwork> {
  const unavailable = clusterNetworkUnavailable();
  if (unavailable) throw new Error(`the cluster mode cannot run here: ${unavailable}`);
  const netns = netnsName(stateDir);
  createClusterNetns(netns);
  log(`network namespace ${netns} made (the node, its pods and the stack's servers live in it)`);
  const pki = ensureClusterPki(stateDir);
  // Short: a Unix socket's path is limited to 107 bytes, and state folders can be deep.
  const socketPath = join('/run', `${netns}.relay.sock`);
  const relay = hostRelay(socketPath);
  return {
    netns,
    pki,
    relay,
    startRelayInside: () => startRelayInside(netns, socketPath, stateDir),
    stop: async () => {
      await relay.stop();
      rmSync(socketPath, { force: true });
      removeClusterNetns(netns);
      log(`network namespace ${netns} removed`);
    },
  };
}
