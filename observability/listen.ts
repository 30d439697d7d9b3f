// Binds a server (metrics, admission webhook, activator) and answers the port it got, which is how a
// requested port 0 ("any free port") becomes known. A bind failure (the port taken) rejects instead of
// surfacing later as an unhandled 'error' event.
import type { AddressInfo, Server } from 'node:net';

export async function listenOn(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
