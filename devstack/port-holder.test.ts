import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { describeHolder, listeningSockets, portHolder, readableCommand, socketInode } from './port-holder.ts';

// A /proc/net/tcp excerpt: 127.0.0.1:7233 listening (0A), 0.0.0.0:8233 listening, and an established
// connection from local port 7233 that must not count.
const TABLE = [
  '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 0100007F:1C41 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 4242 1 0000000000000000 100 0 0 10 0',
  '   1: 00000000:2029 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 777 1 0000000000000000 100 0 0 10 0',
  '   2: 0100007F:1C41 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 9999 1 0000000000000000 20 4 30 10 -1',
  '',
].join('\n');

const TABLE6 = [
  '  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
  '   0: 00000000000000000000000001000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 5151 1 0000000000000000 100 0 0 10 0',
].join('\n');

describe('listeningSockets', () => {
  it('finds only listening sockets on the port, with inode and uid', () => {
    expect(listeningSockets(TABLE, 7233)).toEqual([{ inode: 4242, uid: 1000 }]);
    expect(listeningSockets(TABLE, 8233)).toEqual([{ inode: 777, uid: 0 }]);
    expect(listeningSockets(TABLE, 54321)).toEqual([]);
    expect(listeningSockets(TABLE6, 8080)).toEqual([{ inode: 5151, uid: 1001 }]);
    expect(listeningSockets('', 1)).toEqual([]);
  });
});

describe('socketInode and readableCommand', () => {
  it('reads socket links and command lines', () => {
    expect(socketInode('socket:[4242]')).toBe(4242);
    expect(socketInode('/dev/null')).toBeUndefined();
    expect(socketInode('anon_inode:[eventpoll]')).toBeUndefined();
    expect(readableCommand('temporal\0server\0start-dev\0')).toBe('temporal server start-dev');
    expect(readableCommand('x'.repeat(300), 10)).toBe(`${'x'.repeat(10)}…`);
  });

  it('describes a holder it can or cannot see into', () => {
    expect(describeHolder({ port: 7233, pid: 12, command: 'temporal server', uid: 0 })).toBe('pid 12 (temporal server)');
    // Another user's socket, seen by a user who cannot look into other users' processes.
    expect(describeHolder({ port: 7233, uid: 0 }, 1000)).toMatch(/^a process of uid 0 this user cannot inspect .*ss -ltnp 'sport = :7233'/);
    // A socket root (or its owner) could see into and still finds no process for: not "cannot inspect".
    expect(describeHolder({ port: 7233, uid: 0 }, 0)).toMatch(/^a listening socket of uid 0 that no process here holds: an exiting process, or one in another PID namespace/);
    expect(describeHolder({ port: 7233, uid: 1000 }, 1000)).not.toContain('cannot inspect');
  });
});

describe('portHolder', () => {
  it('names this very process as the holder of a port it listens on, and nothing for a free port', async () => {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const holder = portHolder(port);
      expect(holder?.pid).toBe(process.pid);
      expect(holder?.command).toContain('node');
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(portHolder(port)).toBeUndefined();
  });
});
