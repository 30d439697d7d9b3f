import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { probe } from './http.ts';
import { freePort } from './ports.ts';
import { inNetns } from './cluster/network.ts';
import { startProcess, waitUntil, type ManagedProcess } from './process.ts';

export interface Etcd {
  process: ManagedProcess;
  url: string;
}

/** `ports` fixed by the caller keep the address stable when a supervised etcd is restarted. */
/** `netns`: run inside the cluster mode's network namespace (devstack/cluster/). */
export async function startEtcd(bin: string, stateDir: string, ports?: { client: number; peer: number }, netns?: string): Promise<Etcd> {
  const [clientPort, peerPort] = ports ? [ports.client, ports.peer] : [await freePort(), await freePort()];
  const dataDir = join(stateDir, 'etcd');
  mkdirSync(dataDir, { recursive: true });
  const url = `http://127.0.0.1:${clientPort}`;
  const proc = startProcess(
    'etcd',
    ...inNetns(netns, bin, [
      `--data-dir=${dataDir}`,
      `--listen-client-urls=${url}`,
      `--advertise-client-urls=${url}`,
      `--listen-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peerPort}`,
      `--initial-cluster=default=http://127.0.0.1:${peerPort}`,
      // A test cluster's data is disposable; skipping fsync saves much time on shared disks.
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]),
    join(stateDir, 'etcd.log'),
  );
  await waitUntil(proc, 'healthy', 60_000, async () => {
    const res = await probe(`${url}/health`);
    return res.status === 200 && res.body.includes('true');
  });
  return { process: proc, url };
}
