import { createServer } from 'node:net';

/**
 * Where servers' ports are picked: below Linux's default ephemeral range (32768–60999), from which the
 * OS takes the local port of every outgoing connection. A port picked there could be taken by one of
 * the stack's own connections (etcd's clients, Temporal's) between the pick and the server's bind.
 */
const PICK_FROM = 20_000;
const PICK_TO = 32_767;
/** Ports this process handed out: two servers picked at once must not get the same one. */
const handedOut = new Set<number>();

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = PICK_FROM + Math.floor(Math.random() * (PICK_TO - PICK_FROM + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await portIsFree(port)) return port;
  }
  return anyFreePort();
}

/** A free port the OS picks (any range). */
function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** The preferred port when nothing listens on it (stable addresses for people), else any free port. */
export function preferredPort(port: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(freePort()));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(port)));
  });
}

/** Whether something listens on 127.0.0.1:`port` right now (a bind attempt, as the server would make). */
export function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
