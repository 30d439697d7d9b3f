// What a cluster-mode stack could leave on this machine's own network and system: interfaces, routes,
// firewall rules, network namespaces, mounts and processes of its state folder. Taken before the start
// and after the stop of each cluster test file; any difference fails the file (issue 33: nothing on the
// machine's own network is changed or left behind).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export type Footprint = Record<'links' | 'routes' | 'firewall' | 'namespaces' | 'mounts' | 'engineMounts' | 'processes', string[]>;

function lines(cmd: string, args: string[]): string[] {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).split('\n').filter(Boolean);
  } catch {
    return [`(${cmd} ${args.join(' ')} could not be read)`];
  }
}

/** Command lines of the processes that name `stateDir` (every server of a stack does). */
function processesNaming(stateDir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (cmdline.includes(stateDir) && Number(pid) !== process.pid) found.push(`${pid} ${cmdline.slice(0, 160)}`);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

export function hostFootprint(stateDir: string): Footprint {
  const mountTable = readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
  const mountPoints = (match: (line: string) => boolean) => mountTable.filter(match).map((l) => l.split(' ')[4] ?? l);
  return {
    links: lines('ip', ['-o', 'link', 'show']).map((l) => l.split(':')[1]?.trim() ?? l),
    routes: lines('ip', ['route', 'show', 'table', 'all']),
    // Counters change by themselves; the rules do not.
    firewall: ['iptables-save', 'ip6tables-save'].flatMap((save) => lines(save, []).filter((l) => !l.startsWith('#')).map((l) => `${save}: ${l.replace(/\[\d+:\d+\]/, '')}`)),
    namespaces: lines('ip', ['netns', 'list']).filter((n) => n.startsWith('kar-')),
    mounts: mountPoints((l) => l.includes(stateDir) || l.includes('/run/netns/kar-')),
    // The private Docker engine's default network namespace, which dockerd left mounted after it stopped.
    // Its own kind: only a file that stops the engine answers for it (under `npm test` the runner holds the
    // engine, which mounts it with its first container, whichever file's).
    engineMounts: mountPoints((l) => /\/kubeairunway-docker-.*\/netns\/default /.test(l)),
    processes: processesNaming(stateDir),
  };
}

/** What `after` has that `before` did not, per kind (but those `ignored`), in words; empty when nothing was left behind. */
export function leftBehind(before: Footprint, after: Footprint, ignored: readonly (keyof Footprint)[] = []): string[] {
  const kinds = (Object.keys(after) as (keyof Footprint)[]).filter((kind) => !ignored.includes(kind));
  return kinds.flatMap((kind) => after[kind].filter((entry) => !before[kind].includes(entry)).map((entry) => `${kind}: ${entry}`));
}
