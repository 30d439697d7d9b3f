import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// Who listens on a TCP port, from /proc alone (no lsof or ss needed): /proc/net/tcp{,6} give the
// listening socket's inode and owner uid, and the process whose /proc/<pid>/fd links to
// `socket:[inode]` holds it. Processes of other users cannot be looked into; their uid is still known.

export interface PortHolder {
  port: number;
  /** Undefined when the socket belongs to a process this user cannot inspect. */
  pid?: number;
  command?: string;
  uid: number;
}

const LISTEN = '0A';

/** The listening sockets on `port` in one /proc/net/tcp or tcp6 table: their inode and owner uid. */
export function listeningSockets(table: string, port: number): { inode: number; uid: number }[] {
  const found: { inode: number; uid: number }[] = [];
  for (const line of table.split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const local = fields[1]!;
    const portHex = local.slice(local.lastIndexOf(':') + 1);
    if (fields[3] !== LISTEN || Number.parseInt(portHex, 16) !== port) continue;
    found.push({ inode: Number(fields[9]), uid: Number(fields[7]) });
  }
  return found;
}

/** The inode of an fd link's target when it is a socket (`socket:[12345]`). */
export function socketInode(linkTarget: string): number | undefined {
  const m = /^socket:\[(\d+)\]$/.exec(linkTarget);
  return m ? Number(m[1]) : undefined;
}

/** A command line from /proc/<pid>/cmdline (NUL-separated), shortened for one log line. */
export function readableCommand(cmdline: string, max = 160): string {
  const text = cmdline.replace(/\0+$/, '').split('\0').join(' ');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function readOr(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** The process listening on `port` (any local address), or undefined when nothing listens there. */
export function portHolder(port: number): PortHolder | undefined {
  const sockets = [...listeningSockets(readOr('/proc/net/tcp'), port), ...listeningSockets(readOr('/proc/net/tcp6'), port)];
  if (sockets.length === 0) return undefined;
  const inodes = new Set(sockets.map((s) => s.inode));
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${entry}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = socketInode(target);
      if (inode !== undefined && inodes.has(inode)) {
        return { port, pid: Number(entry), command: readableCommand(readOr(`/proc/${entry}/cmdline`)), uid: sockets[0]!.uid };
      }
    }
  }
  return { port, uid: sockets[0]!.uid };
}

/**
 * "pid 1234 (temporal server start-dev …)", or what is known about a socket no visible process holds:
 * another user's process (this user cannot look into it), or, when this user could look (its own uid,
 * or root), a process that is exiting (its sockets close when its last thread has: a moment) or one in
 * another PID namespace (a container).
 */
export function describeHolder(holder: PortHolder, viewerUid: number | undefined = process.getuid?.()): string {
  if (holder.pid !== undefined) return `pid ${holder.pid} (${holder.command || 'unknown command'})`;
  if (viewerUid === 0 || viewerUid === holder.uid) {
    return `a listening socket of uid ${holder.uid} that no process here holds: an exiting process, or one in another PID namespace such as a container (try: ss -ltnp 'sport = :${holder.port}')`;
  }
  return `a process of uid ${holder.uid} this user cannot inspect (try: sudo ss -ltnp 'sport = :${holder.port}')`;
}
