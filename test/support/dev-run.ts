// A `kubeairunway dev` process as the dev-command and dev-interrupt tests start it: its output collected,
// its exit awaited, and every run remembered so a file's afterAll can kill what a failed test left.
import type { ChildProcess } from 'node:child_process';
import { eventually } from './env.ts';

export interface DevRun {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export interface DevPorts {
  temporal: number;
  ui: number;
  metrics: number;
}

/** The dev command's flags for a private state folder and fixed ports. */
export function devArgs(stateDir: string, ports: DevPorts): string[] {
  return ['--state-dir', stateDir, '--temporal-port', String(ports.temporal), '--temporal-ui-port', String(ports.ui), '--metrics-port', String(ports.metrics)];
}

const runs: DevRun[] = [];

/** Follows a started dev process (its stdout and stderr piped). */
export function followDev(child: ChildProcess): DevRun {
  let text = '';
  child.stdout!.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const run = { child, output: () => text, exited };
  runs.push(run);
  return run;
}

/** Waits for the welcome; a run that exits first fails with its output. */
export const devReady = (run: DevRun) =>
  eventually('dev to be running', async () => run.output().includes('Press Ctrl-C') || (run.child.exitCode !== null && Promise.reject(new Error(run.output()))), 240_000, 200);

/** SIGKILLs every run still alive (a test that failed half-way). */
export function killDevRuns(): void {
  for (const r of runs) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
}
