import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startProcess, waitUntil, type ManagedProcess } from '../process.ts';
import { inNetns } from './network.ts';

// How the host reaches the servers of a cluster-mode stack, which all run inside the stack's own network
// namespace: for each port the host needs, a listener on the host's 127.0.0.1:<port> hands every
// connection over a Unix socket (a file: both namespaces see it) to the relay's inside half, which joins
// it to 127.0.0.1:<port> inside the namespace. Same port numbers on both sides, so every address the
// stack hands out (kubeconfig, Temporal, UI, probes) is the same from the host and from inside; nothing
// is routed, no interface or rule is added to the host's own network.

/** The host half: listeners in this process. */
export interface HostRelay {
  /** Listens on the host's 127.0.0.1:<port> for the namespace's 127.0.0.1:<port> (idempotent). */
  expose(port: number): Promise<void>;
  stop(): Promise<void>;
}

const INNER_SCRIPT = join(import.meta.dirname, 'relay-inner.mjs');

/** Starts the inside half in `netns`: a server of the stack, restarted like the others if it dies. */
export async function startRelayInside(netns: string, socketPath: string, stateDir: string): Promise<ManagedProcess> {
  rmSync(socketPath, { force: true });
  // The state folder on its command line lets a later start reap it if this run is killed (leftovers.ts).
  const inner = startProcess('netns-relay', ...inNetns(netns, process.execPath, [INNER_SCRIPT, socketPath, stateDir]), join(stateDir, 'netns-relay.log'));
  await waitUntil(inner, 'listening on its socket', 30_000, async () => existsSync(socketPath));
  return inner;
}

/** The host half, which exposes ports on demand; a connection made while the inside half is down fails. */
export function hostRelay(socketPath: string): HostRelay {
  const servers = new Map<number, Server>();
  const sockets = new Set<Socket>();

  const connect = (client: Socket, port: number) => {
    sockets.add(client);
    const inside = createConnection(socketPath, () => {
      inside.write(`${port}\n`);
      client.pipe(inside);
      inside.pipe(client);
    });
    sockets.add(inside);
    for (const [a, b] of [
      [client, inside],
      [inside, client],
    ] as const) {
      a.on('error', () => b.destroy());
      a.on('close', () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  };

  const expose = async (port: number) => {
    if (servers.has(port)) return;
    const server = createServer((client) => connect(client, port));
    servers.set(port, server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err) => {
        servers.delete(port);
        reject(new Error(`relay for port ${port}: cannot listen on 127.0.0.1:${port} (${err.message})`));
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  };

  const stop = async () => {
    for (const s of sockets) s.destroy();
    await Promise.all([...servers.values()].map((s) => new Promise<void>((r) => s.close(() => r()))));
    servers.clear();
  };
  return { expose, stop };
}
