// A killed Go server (etcd, kube-apiserver, Temporal) exits thread by thread: its main thread is a zombie
// while the others still run, and its listening sockets stay open until the last one is gone. Reaping
// must wait that out, or the next run finds the port taken and moves it. A small C program stands in:
// its main thread ends (pthread_exit) while a second thread keeps the socket open two more seconds.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { alive } from './leftovers.ts';
import { freePort, portIsFree } from './ports.ts';

const dir = mkdtempSync(join(tmpdir(), 'leftovers-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SOURCE = `
#include <arpa/inet.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
static void *later(void *arg) { (void)arg; sleep(2); exit(0); }
int main(int argc, char **argv) {
  (void)argc;
  int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(atoi(argv[1])), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
  if (bind(s, (struct sockaddr *)&a, sizeof a) || listen(s, 1)) return 1;
  pthread_t t;
  pthread_create(&t, 0, later, 0);
  write(1, "ready\\n", 6);
  pthread_exit(0);
}
`;

function compiler(): string | undefined {
  for (const cc of ['/usr/bin/cc', '/usr/bin/gcc']) if (existsSync(cc)) return cc;
  return undefined;
}

describe('alive()', () => {
  const cc = compiler();
  it.skipIf(!cc)('counts a process whose main thread is a zombie as alive while another thread still holds its port', async () => {
    writeFileSync(join(dir, 'exiting.c'), SOURCE);
    execFileSync(cc!, ['-o', join(dir, 'exiting'), join(dir, 'exiting.c'), '-lpthread']);
    const port = await freePort();
    const child = spawn(join(dir, 'exiting'), [String(port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
    await new Promise((r) => setTimeout(r, 200));
    const pid = child.pid!;
    // The situation: the main thread is a zombie, the port is still held.
    expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/^\d+ \(.*\) Z/);
    expect(await portIsFree(port)).toBe(false);
    expect(alive(pid)).toBe(true);
    const deadline = Date.now() + 10_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(alive(pid)).toBe(false);
    expect(await portIsFree(port)).toBe(true);
  });
});
