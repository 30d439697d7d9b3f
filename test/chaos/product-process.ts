// One process of the product (or of the simulated upstream operators) as the chaos run sees it: started
// from test/support/controller-process.ts in its own process group, killed with SIGKILL, started again.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../support/controller-process.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

export interface Killable {
  name: string;
  /** SIGKILL: no chance to say goodbye (no "not ready", no drained worker). */
  kill(): Promise<void>;
  start(): Promise<void>;
  readonly running: boolean;
}

/** A controller process with the given parts (core, watcher, providers, simulators, webhook). */
export function productProcess(name: string, options: () => object): Killable {
  let child: ChildProcess | undefined;
  return {
    name,
    get running() {
      return child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async start() {
      child = await spawnReady(options());
    },
    async kill() {
      const c = child;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        c.once('exit', () => resolve());
        process.kill(-c.pid!, 'SIGKILL');
      });
    },
  };
}

function spawnReady(options: object): Promise<ChildProcess> {
  // Its own process group: tsx runs the script in a child node process, and both must die together.
  const child = spawn(TSX, [SCRIPT, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`process not ready within 120 s: ${out.slice(-2000)}`));
    }, 120_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`process exited before it was ready (${code ?? signal}): ${out.slice(-2000)}`));
    });
  });
}
