import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planPorts, PortTakenError, portTakenMessage } from './port-plan.ts';
import { portHolder } from './port-holder.ts';
import { freePort } from './ports.ts';

const dir = mkdtempSync(join(tmpdir(), 'port-plan-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function listen(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, port: (server.address() as { port: number }).port };
}

describe('portTakenMessage', () => {
  it('names the port, its holder and the flag that chooses another', () => {
    expect(portTakenMessage('The Temporal server', 7233, 'pid 12 (temporal server start-dev)', '--temporal-port')).toBe(
      'The Temporal server port 7233 is taken by pid 12 (temporal server start-dev). Stop that process, or choose another port with --temporal-port.',
    );
  });
});

describe('planPorts', () => {
  it('keeps the ports recorded by an earlier run, and moves (saying so) only an internal one that is taken', async () => {
    const first = await planPorts(dir, {}, () => {});
    expect(JSON.parse(readFileSync(join(dir, 'ports.json'), 'utf8'))).toEqual(first);
    expect(await planPorts(dir, {}, () => {})).toEqual(first);

    const { server, port } = await listen();
    writeFileSync(join(dir, 'ports.json'), JSON.stringify({ ...first, etcdPeer: port }));
    const lines: string[] = [];
    const moved = await planPorts(dir, {}, (l) => lines.push(l));
    server.close();
    expect(moved.etcdPeer).not.toBe(port);
    expect(lines).toEqual([expect.stringContaining(`etcdPeer port ${port} is taken by pid ${process.pid} (`)]);
  });

  it('fails on a taken fixed port, naming the process that holds it', async () => {
    const { server, port } = await listen();
    try {
      const attempt = planPorts(dir, { temporal: { port, what: 'The Temporal server', flag: '--temporal-port' } }, () => {});
      await expect(attempt).rejects.toBeInstanceOf(PortTakenError);
      await expect(attempt).rejects.toThrow(`The Temporal server port ${port} is taken by pid ${process.pid} (`);
    } finally {
      server.close();
    }
    const free = await freePort();
    expect((await planPorts(dir, { temporal: { port: free, what: 'x' } }, () => {})).temporal).toBe(free);
  });

  it('keeps a recorded port that only TIME-WAIT sockets hold (servers bind it with SO_REUSEADDR), and names no holder', async () => {
    const first = await planPorts(dir, {}, () => {});
    // A server that closes an accepted connection first leaves that connection in TIME-WAIT on its port,
    // as a stopped kube-apiserver leaves its clients' connections.
    const server = createServer((socket) => socket.end());
    const port = first.kubeApiServer;
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    await new Promise<void>((resolve, reject) => {
      const client = connect(port, '127.0.0.1');
      client.on('error', reject);
      client.on('end', () => client.end());
      client.on('close', () => resolve());
      client.resume();
    });
    await new Promise<void>((r) => server.close(() => r()));
    const timeWait = (table: string) =>
      table.split('\n').some((line) => {
        const f = line.trim().split(/\s+/);
        return f[3] === '06' && Number.parseInt(f[1]!.slice(f[1]!.lastIndexOf(':') + 1), 16) === port;
      });
    expect(timeWait(readFileSync('/proc/net/tcp', 'utf8')), 'a TIME-WAIT socket on the port').toBe(true);
    expect(portHolder(port)).toBeUndefined();
    const lines: string[] = [];
    expect((await planPorts(dir, {}, (l) => lines.push(l))).kubeApiServer).toBe(port);
    expect(lines).toEqual([]);
  });
});
