// The inside half of the cluster network's relay (devstack/cluster/relay.ts): runs in the stack's network
// namespace (`ip netns exec <ns> node relay-inner.mjs <socket>`), listens on a Unix socket (a file, which
// both namespaces see) and, for each connection, reads one header line naming a port, then joins the
// connection to 127.0.0.1:<port> inside the namespace. Plain JavaScript: node runs it without a loader.
import { createConnection, createServer } from 'node:net';
import { rmSync } from 'node:fs';

// argv[3], the state folder, is only there for leftovers.ts to recognise this process as the stack's.
const socket = process.argv[2];
if (!socket) {
  process.stderr.write('usage: relay-inner.mjs <unix socket path>\n');
  process.exit(2);
}
rmSync(socket, { force: true });

const server = createServer((client) => {
  let header = Buffer.alloc(0);
  const onData = (chunk) => {
    header = Buffer.concat([header, chunk]);
    const end = header.indexOf(10);
    if (end < 0) {
      if (header.length > 16) client.destroy();
      return;
    }
    client.off('data', onData);
    client.pause();
    const port = Number(header.subarray(0, end).toString('ascii'));
    const rest = header.subarray(end + 1);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) return client.destroy();
    const target = createConnection({ host: '127.0.0.1', port }, () => {
      if (rest.length > 0) target.write(rest);
      client.pipe(target);
      target.pipe(client);
      client.resume();
    });
    target.on('error', () => client.destroy());
    client.on('error', () => target.destroy());
    target.on('close', () => client.destroy());
    client.on('close', () => target.destroy());
  };
  client.on('data', onData);
  client.on('error', () => client.destroy());
});
server.listen(socket, () => process.stdout.write(`relay listening on ${socket}\n`));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
