import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ContainerdClient } from '../containerd/client.ts';
import { containerdConfig, removeAllContainers, type Containerd, type CriuStatus } from './containerd.ts';
import type { DockerEngine } from './docker.ts';
import { ensureKybernateNodeImage } from './docker-images.ts';
import { startProcess, stopProcess, waitUntil } from './process.ts';

// A Kybernate node with a CRIU that works: a container of trixie's containerd 1.7, runc and CRIU 4 (the
// image from devstack/docker-images.ts) on the private Docker engine, running containerd on the same
// state folder layout as devstack/containerd.ts. The state folder is mounted at its own path, so the
// socket the node worker (`run --node`, or the tests' controller) dials, the root file systems the tests
// build on the host and the runc state all have one path on both sides.
//
// The capabilities are `--privileged`'s minus CAP_SYS_RESOURCE: this machine's root lacks it, and docker
// refuses `--privileged` there ("unable to apply caps"). Seccomp and AppArmor off (CRIU uses syscalls
// the default profile refuses), /proc/sys writable (systempaths=unconfined), the host's cgroup hierarchy
// mounted read-write so the nested runc can make its containers' cgroups, and the host's network. Its own
// PID namespace: removing the node container ends containerd's shims and containers with it.

export const NODE_CONTAINER_FLAGS = [
  '--cap-add=ALL',
  '--cap-drop=SYS_RESOURCE',
  '--security-opt=seccomp=unconfined',
  '--security-opt=apparmor=unconfined',
  '--security-opt=systempaths=unconfined',
  '--volume=/sys/fs/cgroup:/sys/fs/cgroup:rw',
];

export interface KybernateNode extends Containerd {
  /** The docker container's name. */
  container: string;
  /** CRIU as the node has it: `criu check` run inside the node container. */
  criu(): Promise<CriuStatus>;
}

/**
 * Starts the node container (image built once) with containerd on `<stateDir>/containerd`, ready when its
 * Version service answers on the socket. `stop()` removes every container the tests left, then the node.
 */
export async function startKybernateNode(engine: DockerEngine, stateDir: string, opts: { log?: (line: string) => void; name?: string } = {}): Promise<KybernateNode> {
  const image = await ensureKybernateNodeImage(engine, opts.log);
  const dir = join(stateDir, 'containerd');
  mkdirSync(dir, { recursive: true });
  const socket = join(dir, 'containerd.sock');
  rmSync(socket, { force: true });
  const config = join(dir, 'config.toml');
  writeFileSync(config, containerdConfig(dir));
  const runcRoot = join(dir, 'runc');
  mkdirSync(runcRoot, { recursive: true });
  const container = opts.name ?? `kubeairunway-node-${process.pid}-${Date.now().toString(36)}`;
  // `docker run` in the foreground: its output is containerd's log, and its exit is the node's.
  const proc = startProcess(
    'kybernate-node',
    engine.client,
    ['run', '--rm', '--name', container, ...NODE_CONTAINER_FLAGS, '--network=host', `--volume=${stateDir}:${stateDir}`, '--entrypoint=containerd', image, '--config', config, '--log-level', 'info'],
    join(stateDir, 'kybernate-node.log'),
    { DOCKER_HOST: engine.host },
  );
  const probe = new ContainerdClient({ socket, namespace: 'default', timeoutMs: 2_000 });
  try {
    await waitUntil(proc, 'answering on its containerd socket', 60_000, async () => Boolean((await probe.version()).version));
  } finally {
    probe.close();
  }
  opts.log?.(`kybernate node ${container} (${image}) up; containerd on ${socket}`);
  const stop = async () => {
    await removeAllContainers(socket, 20_000, opts.log).catch((err: Error) => opts.log?.(`node cleanup: ${err.message}`));
    // The node's PID namespace ends with containerd, taking any shim still up with it.
    await engine.run(['rm', '-f', container], { timeoutMs: 60_000 }).catch((err: Error) => opts.log?.(`removing node ${container}: ${err.message}`));
    await stopProcess(proc, 10_000);
  };
  const criu = async (): Promise<CriuStatus> => {
    const version = /Version:\s*(\S+)/.exec(await engine.run(['exec', container, 'criu', '--version']).catch(() => ''))?.[1];
    try {
      await engine.run(['exec', container, 'criu', 'check'], { timeoutMs: 60_000 });
      return { works: true, version, reason: undefined };
    } catch (err) {
      const line = (err as Error).message.split('\n').find((l) => /Error/.test(l))?.trim() ?? (err as Error).message.split('\n')[0];
      return { works: false, version, reason: `CRIU ${version ?? '?'} in the node container fails \`criu check\`: ${line}` };
    }
  };
  return { process: proc, socket, runcRoot, dir, stop, container, criu };
}
