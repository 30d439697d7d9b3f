import { spawn, type ChildProcess } from 'node:child_process';

// The servers run in sessions of their own (so a terminal's Ctrl-C reaches the controller first, which
// stops them in order). The price: when the owning Node process dies without stopping them (SIGKILL, an
// OOM kill, a wrapper that kills it while busy), nothing stops them, and Linux's parent-death signal
// (prctl PDEATHSIG) is out of Node's reach. So each stack has a guard: a tiny Node process in a session
// of its own too, holding a pipe from its owner. The kernel closes that pipe when the owner dies, however
// it dies; the guard then stops the servers the stack's pid file lists (SIGTERM, then SIGKILL after a
// grace period), runs the commands the record lists to remove what is not a process (a network
// namespace, a container) and removes the file. An owner that stops its stack itself releases the guard first.
//
// Plain JavaScript run with `node -e`: it must start in milliseconds, from the sources and from dist/
// alike, without tsx. It repeats leftovers.ts's checks: only processes whose command line names the
// state folder, only when the pid file still belongs to the dead owner.
const GUARD_SCRIPT = String.raw`
const fs = require('node:fs');
const path = require('node:path');
const [stateDir, pidFileName, owner, graceMs] = process.argv.slice(1);
const file = path.join(stateDir, pidFileName);
const log = (line) => { try { fs.appendFileSync(path.join(stateDir, 'orphan-guard.log'), new Date().toISOString() + ' ' + line + '\n'); } catch {} };
const zombie = (stat) => { try { return /^\d+ \(.*\) [ZX]/s.test(fs.readFileSync(stat, 'utf8')); } catch { return true; } };
// As leftovers.ts's alive(): a Go server's main thread is a zombie while its other threads still exit.
const alive = (pid) => {
  try { process.kill(pid, 0); } catch (err) { if (err.code !== 'EPERM') return false; }
  let tasks;
  try { tasks = fs.readdirSync('/proc/' + pid + '/task'); } catch { return !zombie('/proc/' + pid + '/stat'); }
  return tasks.some((t) => !zombie('/proc/' + pid + '/task/' + t + '/stat'));
};
const ours = (pid) => { try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').includes(stateDir); } catch { return false; } };
const kill = (pid, sig) => { try { process.kill(pid, sig); } catch {} };
let reaping = false;
async function reap() {
  if (reaping) return;
  reaping = true;
  let record;
  try { record = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { process.exit(0); }
  if (String(record.owner) !== owner) process.exit(0);
  const pids = record.pids.filter((pid) => alive(pid) && ours(pid));
  log('owner pid ' + owner + ' is gone without stopping its servers; stopping pids ' + pids.join(' '));
  for (const pid of pids) kill(pid, 'SIGTERM');
  const deadline = Date.now() + Number(graceMs);
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const left = pids.filter(alive);
  for (const pid of left) kill(pid, 'SIGKILL');
  if (left.length) log('killed pids ' + left.join(' ') + ' after ' + graceMs + ' ms');
  // What the stack made that is not a process (its network namespace, its node's container), last first.
  for (const command of (record.undo || []).slice().reverse()) {
    const done = require('node:child_process').spawnSync(command[0], command.slice(1), { stdio: 'ignore', timeout: 30000 });
    log('undo: ' + command.join(' ') + ' (exit ' + done.status + ')');
  }
  try { if (JSON.parse(fs.readFileSync(file, 'utf8')).owner === record.owner) fs.rmSync(file, { force: true }); } catch {}
  process.exit(0);
}
for (const sig of ['SIGINT', 'SIGHUP', 'SIGQUIT']) process.on(sig, () => {});
process.stdin.on('end', reap);
process.stdin.on('close', reap);
process.stdin.on('error', reap);
process.stdin.resume();
`;

export interface OrphanGuard {
  /** The owner stopped (or is stopping) the servers itself: the guard ends without touching them. */
  release(): void;
}

/** Starts the guard of the stack in `stateDir`, whose pid file is `pidFileName`, owned by this process. */
export function startOrphanGuard(stateDir: string, pidFileName: string, graceMs = 5_000): OrphanGuard {
  const child: ChildProcess = spawn(process.execPath, ['-e', GUARD_SCRIPT, stateDir, pidFileName, String(process.pid), String(graceMs)], {
    stdio: ['pipe', 'ignore', 'ignore'],
    detached: true,
    // No NODE_OPTIONS (--import tsx, an inspector) inherited: the guard is plain JavaScript.
    env: { PATH: process.env.PATH ?? '' },
  });
  // Neither the guard nor its pipe keeps this process alive.
  child.unref();
  // A pipe's stream is a socket, which can be unref'd; its Writable type does not say so.
  const { stdin } = child;
  if (stdin && 'unref' in stdin && typeof stdin.unref === 'function') stdin.unref();
  child.on('error', () => {});
  child.stdin?.on('error', () => {});
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      child.kill('SIGKILL');
    },
  };
}
