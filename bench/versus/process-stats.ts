// CPU seconds and resident memory of a process and everything it started, read from /proc. A tree,
// because a Node process may run helpers (tsx's esbuild service) whose work is part of its cost.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface ProcessSample {
  /** User + system CPU seconds of the live tree, plus what its reaped children used. */
  cpuSeconds: number;
  rssBytes: number;
}

let ticks: number | undefined;
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** Fields after the command name, which is in parentheses and may contain spaces. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function rssOf(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** The process and its live descendants. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const ppid = Number(statFields(Number(entry))?.[1]);
    if (!Number.isFinite(ppid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export function sampleProcess(root: number): ProcessSample {
  let jiffies = 0;
  let rss = 0;
  for (const pid of processTree(root)) {
    const f = statFields(pid);
    if (!f) continue;
    // utime, stime, cutime, cstime are fields 14–17 of /proc/<pid>/stat; f[0] is field 3.
    jiffies += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    rss += rssOf(pid);
  }
  return { cpuSeconds: jiffies / clockTicks(), rssBytes: rss };
}

/** The sum over several roots (a controller made of several processes). */
export function sampleProcesses(roots: readonly number[]): ProcessSample {
  return roots.map(sampleProcess).reduce((a, b) => ({ cpuSeconds: a.cpuSeconds + b.cpuSeconds, rssBytes: a.rssBytes + b.rssBytes }), { cpuSeconds: 0, rssBytes: 0 });
}
