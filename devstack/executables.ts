import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

// Finding the Debian binaries the local stack runs (containerd, runc, criu, dockerd, docker, debootstrap,
// epmd, go-built tools): one place for "is this file executable" and "where on PATH is it".

/** Whether `path` is a file this process may execute. */
export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * PATH with the sbin and bin folders appended where missing: daemons started as root (containerd's shim,
 * dockerd) look for runc and criu on PATH, and those are in the sbin folders, which a user's PATH may lack.
 */
export function searchPath(): string {
  const dirs = (process.env.PATH ?? '').split(':').filter(Boolean);
  for (const d of ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']) if (!dirs.includes(d)) dirs.push(d);
  return dirs.join(':');
}

/** The first executable `name` on searchPath(), or undefined. */
export function onSearchPath(name: string): string | undefined {
  return searchPath()
    .split(':')
    .map((d) => join(d, name))
    .find(executable);
}
