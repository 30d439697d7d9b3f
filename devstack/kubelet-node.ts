import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
import { resolveTool } from '../tools/resolve.ts';
import { toolSpec } from '../tools/versions.ts';
import { buildBusyboxRootfs, containerdConfig, containerdUnavailable } from './containerd.ts';
import { dockerCacheDir, dockerUnavailable, hasImage, type DockerEngine } from './docker.ts';
import { baseImageUnavailable, ensureKybernateNodeImage } from './docker-images.ts';
import { NODE_CONTAINER_FLAGS } from './kybernate-node.ts';
import { freePort } from './ports.ts';
import { clusterKubeletSettings, nodeNetworkFlags, podNetworkConfig, type NodeInCluster } from './cluster/node-network.ts';
import { recordUndo } from './leftovers.ts';
import { pidExists, startProcess, stopProcess, tailOf, waitUntil, type ManagedProcess } from './process.ts';

// A real node: the Kybernate node container (trixie's containerd 1.7 with its CRI plugin on, runc, CRIU 4)
// plus a kubelet built from the Go module proxy (tools/, `npm run tools -- --only kubelet`), registered
// with a local stack's API server. Pods bound to it (spec.nodeName: no scheduler runs in the local stack)
// are started by the kubelet from images imported into the node's containerd (no registry here).
// What it takes on this machine, and why, is in docs/kubelet.md:
// - cgroup v1 (kubelet >= 1.35 refuses it unless failCgroupV1: false), cgroupfs driver, the pods' cgroups
//   under a cgroup root of this node's own (removed at stop);
// - no CAP_SYS_RESOURCE: containerd's restrict_oom_score_adj (the kubelet asks -998 for sandboxes);
// - the kubelet sets kernel tunables (kernel.panic_on_oops=1, vm.overcommit_memory=1, ...) on start. Those
//   are the shared host kernel's: the node shows the kubelet files holding its expected values instead
//   (bind mounts in the node's own mount namespace), so the host is never changed;
// - pods on the host's network only: a pod network would need a bridge on the host (the node container
//   shares the host's network); the CNI config is a loopback one that lets the runtime report ready.

/** The sandbox ("pause") image: busybox-static sleeping; CRI starts one per pod. */
export const PAUSE_IMAGE = 'kubeairunway-local/pause:busybox-static';
/** A tiny image for pods: Debian's busybox-static and its applets. */
export const BUSYBOX_IMAGE = 'kubeairunway-local/busybox:static';
/** containerd's state folder on the node, as on most nodes; pods that mount it (hostPath) find `containerd.sock` there too. */
export const NODE_CONTAINERD_DIR = '/run/containerd';
/** How containerd (and so the kubelet, in pod specs) names an image `docker save` exported. */
export const criImageName = (tag: string) => (tag.split('/')[0]!.includes('.') ? tag : `docker.io/${tag}`);

/** What the kubelet would set (its setupKernelTunables), shown to it as already set. */
const KERNEL_TUNABLES: Record<string, number> = {
  'vm/overcommit_memory': 1,
  'vm/panic_on_oom': 0,
  'kernel/panic': 10,
  'kernel/panic_on_oops': 1,
  'kernel/keys/root_maxkeys': 1000000,
  'kernel/keys/root_maxbytes': 25000000,
};

/**
 * The cgroup hierarchies mounted under /sys/fs/cgroup (`/sys/fs/cgroup/<name>`), where a node's cgroup root
 * is made: every v1 one, and the hybrid layout's v2 one (`unified`), where runc makes cgroups too.
 */
function cgroupHierarchies(version: 'v1' | 'all' = 'all'): string[] {
  const types = version === 'v1' ? ['cgroup'] : ['cgroup', 'cgroup2'];
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8').split('\n');
  return mounts
    .map((line) => line.split(' '))
    .filter((f) => types.includes(f[f.indexOf('-') + 1] ?? '') && f[4]?.startsWith('/sys/fs/cgroup/'))
    .map((f) => f[4]!);
}

/**
 * Why a kubelet node cannot run here, or undefined: the node container's needs (Docker engine, base image,
 * busybox-static) and a built kubelet.
 */
export function kubeletNodeUnavailable(): string | undefined {
  const other = dockerUnavailable() ?? baseImageUnavailable() ?? containerdUnavailable();
  if (other) return other;
  const spec = toolSpec('kubelet');
  if (!resolveTool('kubelet')) return `no kubelet ${spec.version} built: run \`npm run tools -- --only kubelet\` (a Go build from the module proxy), or set ${spec.envVar}`;
  if (cgroupHierarchies('v1').length === 0) return 'no cgroup v1 hierarchy under /sys/fs/cgroup: this recipe is for cgroup v1 hosts (see docs/kubelet.md)';
  return undefined;
}

/** containerd's config for a kubelet node: the Kybernate node's plus the CRI plugin. */
export function kubeletContainerdConfig(dir: string): string {
  const q = (s: string) => JSON.stringify(s);
  // Its state (the tasks' bundles, CRIU's logs among them) where a node keeps it, so the paths in its
  // errors are the ones the node worker's pod sees through its hostPath mount of /run/containerd.
  const base = containerdConfig(dir, NODE_CONTAINERD_DIR).replace('"io.containerd.grpc.v1.cri", ', '');
  return [
    base,
    '[plugins."io.containerd.grpc.v1.cri"]',
    `  sandbox_image = ${q(criImageName(PAUSE_IMAGE))}`,
    // The kubelet asks -998 for sandboxes, -997 for guaranteed pods; lowering a score needs CAP_SYS_RESOURCE,
    // which this machine's root lacks: containerd keeps such a score at its own instead.
    '  restrict_oom_score_adj = true',
    '  enable_selinux = false',
    '  [plugins."io.containerd.grpc.v1.cri".containerd]',
    '    snapshotter = "overlayfs"',
    '    default_runtime_name = "runc"',
    '    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]',
    '      runtime_type = "io.containerd.runc.v2"',
    '      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]',
    '        SystemdCgroup = false',
    '  [plugins."io.containerd.grpc.v1.cri".cni]',
    `    bin_dir = ${q(join(dir, 'cni', 'bin'))}`,
    `    conf_dir = ${q(join(dir, 'cni', 'net.d'))}`,
    '',
  ].join('\n');
}

/** An image made from Debian's busybox-static tree (no registry serves one here), with `files` added. */
export interface BusyboxImage {
  tag: string;
  /** The image's CMD, as JSON. */
  cmd: string[];
  /** Extra files, by path inside the image. */
  files?: Record<string, string>;
}

const BUSYBOX_IMAGES: BusyboxImage[] = [
  { tag: BUSYBOX_IMAGE, cmd: ['/bin/sh'] },
  { tag: PAUSE_IMAGE, cmd: ['/bin/busybox', 'sleep', '2147483647'] },
];

/** Each image made once in the engine by `docker import` of a busybox-static tree. */
export async function ensureBusyboxImages(engine: DockerEngine, log: (line: string) => void = () => undefined, images: BusyboxImage[] = BUSYBOX_IMAGES): Promise<string[]> {
  for (const { tag, cmd, files = {} } of images) {
    if (await hasImage(engine, tag)) continue;
    const rootfs = mkdtempSync(join(dockerCacheDir(), 'busybox-'));
    try {
      buildBusyboxRootfs(rootfs);
      for (const [path, content] of Object.entries(files)) {
        mkdirSync(dirname(join(rootfs, path)), { recursive: true });
        writeFileSync(join(rootfs, path), content, { mode: 0o644 });
      }
      const tar = spawn('tar', ['-C', rootfs, '--numeric-owner', '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
      await engine.run(['import', '--change', 'ENV PATH=/bin', '--change', `CMD ${JSON.stringify(cmd)}`, '-', tag], { input: tar.stdout, timeoutMs: 120_000 });
      log(`image ${tag}: made from busybox-static`);
    } finally {
      rmSync(rootfs, { recursive: true, force: true });
    }
  }
  return images.map((i) => i.tag);
}

/** Tags each image with the name pods ask for (`[image, name]`) and imports them into the node under those names. */
export async function importAs(engine: DockerEngine, node: KubeletNode, names: readonly (readonly [string, string])[]): Promise<string[]> {
  for (const [from, to] of names) await engine.run(['tag', from, to], { timeoutMs: 30_000 });
  const tags = names.map(([, to]) => to);
  await node.importImages(tags);
  return tags;
}

export interface KubeletNode {
  nodeName: string;
  container: string;
  /** The node's containerd socket (CRI and containerd's own API), on the host path of the state folder. */
  socket: string;
  kubelet: ManagedProcess;
  /** Copies images from the Docker engine into the node's containerd (namespace k8s.io), where the kubelet finds them. */
  importImages(tags: string[]): Promise<void>;
  stop(): Promise<void>;
}

export interface KubeletNodeOptions {
  /** A kubeconfig the kubelet registers and reports with (its paths must be inside `stateDir`, which is mounted at its own path). */
  kubeconfigPath: string;
  nodeName?: string;
  log?: (line: string) => void;
  /** The cluster mode: the node in the stack's network namespace with a pod network (devstack/cluster/node-network.ts). */
  cluster?: NodeInCluster;
}

/** Removes a cgroup folder and everything below it (deepest first); each must be empty of tasks. */
function removeCgroupTree(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)) {
    const child = join(dir, entry);
    if (statSync(child).isDirectory()) removeCgroupTree(child);
  }
  try {
    rmdirSync(dir);
  } catch {
    // still holds a task (a process that outlived its container): left for the host's owner to see
  }
}

/**
 * Starts the node container with containerd (CRI on) and a kubelet inside it, registered as `nodeName`
 * with the API server of `kubeconfigPath`; ready when the kubelet's health endpoint answers.
 */
export async function startKubeletNode(engine: DockerEngine, stateDir: string, opts: KubeletNodeOptions): Promise<KubeletNode> {
  const log = opts.log ?? (() => undefined);
  const kubeletBin = resolveTool('kubelet')?.path;
  if (!kubeletBin) throw new Error(kubeletNodeUnavailable() ?? 'no kubelet');
  const image = await ensureKybernateNodeImage(engine, log);
  await ensureBusyboxImages(engine, log);
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const nodeName = opts.nodeName ?? `kubeairunway-node-${suffix}`;
  const container = `kubeairunway-kubelet-${suffix}`;
  const dir = join(stateDir, 'containerd');
  const kdir = join(stateDir, 'kubelet');
  for (const d of [dir, join(dir, 'runc'), join(dir, 'cni', 'bin'), join(dir, 'cni', 'net.d'), kdir, join(kdir, 'sysctl')]) mkdirSync(d, { recursive: true });
  const socket = join(dir, 'containerd.sock');
  rmSync(socket, { force: true });
  writeFileSync(join(dir, 'config.toml'), kubeletContainerdConfig(dir));
  if (opts.cluster) {
    podNetworkConfig(opts.cluster, join(dir, 'cni'));
  } else {
    // Any valid network config makes the CRI runtime report its network ready; pods use the host's network.
    writeFileSync(join(dir, 'cni', 'net.d', '10-loopback.conflist'), JSON.stringify({ cniVersion: '1.0.0', name: 'loopback', plugins: [{ type: 'loopback' }] }));
  }
  const bin = join(kdir, 'kubelet-bin');
  copyFileSync(kubeletBin, bin);

  // The pods' cgroups go under a root of this node's own in every v1 hierarchy (the host's, mounted into
  // the node): the kubelet wants it to exist, and stop() removes it. cpuset needs its cpus and mems set.
  const cgroupRoot = `/kubeairunway-${suffix}`;
  const hierarchies = cgroupHierarchies();
  for (const h of hierarchies) {
    // A run killed before its stop() left its node's (empty once the engine reaped the container) behind.
    for (const entry of readdirSync(h)) {
      const owner = /^kubeairunway-(\d+)-/.exec(entry)?.[1];
      if (owner && !pidExists(Number(owner))) removeCgroupTree(join(h, entry));
    }
    mkdirSync(join(h, cgroupRoot), { recursive: true });
    if (h.endsWith('/cpuset')) for (const f of ['cpuset.cpus', 'cpuset.mems']) writeFileSync(join(h, cgroupRoot, f), readFileSync(join(h, f), 'utf8'));
  }

  const [port, healthzPort] = [await freePort(), await freePort()];
  const config = {
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    kind: 'KubeletConfiguration',
    // This machine runs cgroup v1; kubelet >= 1.35 refuses it by default.
    failCgroupV1: false,
    cgroupDriver: 'cgroupfs',
    cgroupRoot,
    failSwapOn: false,
    address: '127.0.0.1',
    port,
    healthzBindAddress: '127.0.0.1',
    healthzPort,
    readOnlyPort: 0,
    authentication: { anonymous: { enabled: false }, webhook: { enabled: false } },
    authorization: { mode: 'AlwaysAllow' },
    containerRuntimeEndpoint: `unix://${socket}`,
    registerNode: true,
    // Disk here is shared and may be fuller than the defaults allow; this node is for tests.
    evictionHard: { 'memory.available': '1Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
    imageGCHighThresholdPercent: 100,
    imageGCLowThresholdPercent: 99,
    syncFrequency: '5s',
    fileCheckFrequency: '5s',
    nodeStatusUpdateFrequency: '5s',
    podLogsDir: join(kdir, 'pod-logs'),
    resolvConf: '/etc/resolv.conf',
    // On the host's network the kubelet would add its chains (KUBE-FIREWALL with a DROP rule, the canaries)
    // to the machine's own firewall and leave them there; in a cluster's namespace they are the node's own.
    makeIPTablesUtilChains: !!opts.cluster,
    ...(opts.cluster ? clusterKubeletSettings(opts.cluster, kdir) : {}),
  };
  const configFile = join(kdir, 'config.yaml');
  writeFileSync(configFile, stringify(config));
  // Inside the node: containerd in the background, the kernel tunables the kubelet checks shown as set,
  // then the kubelet in the foreground (this process's exit is the kubelet's).
  const tunables = Object.entries(KERNEL_TUNABLES)
    .map(([key, value]) => {
      const file = join(kdir, 'sysctl', key.replaceAll('/', '.'));
      writeFileSync(file, `${value}\n`);
      return `mount --bind ${file} /proc/sys/${key}`;
    })
    .join(' && ');
  const script = [
    'set -e',
    `containerd --config ${join(dir, 'config.toml')} --log-level info > ${join(stateDir, 'node-containerd.log')} 2>&1 &`,
    `while [ ! -S ${socket} ]; do sleep 0.2; done`,
    // The socket also where a node keeps it, beside the state, for the Kybernate node worker's DaemonSet
    // (hostPath /run/containerd): a mount in the node's own mount namespace, not the host's.
    `touch ${NODE_CONTAINERD_DIR}/containerd.sock && mount --bind ${socket} ${NODE_CONTAINERD_DIR}/containerd.sock`,
    tunables,
    `exec ${bin} --config=${configFile} --kubeconfig=${opts.kubeconfigPath} --root-dir=${join(kdir, 'root')} --cert-dir=${join(kdir, 'pki')} --hostname-override=${nodeName}${opts.cluster ? ` --node-ip=${opts.cluster.nodeIp}` : ''} --v=2`,
  ].join('\n');
  const network = opts.cluster ? nodeNetworkFlags(opts.cluster) : { flags: ['--network=host'], wrap: (sh: string) => sh };
  const t0 = Date.now();
  const kubelet = startProcess(
    'kubelet-node',
    engine.client,
    [
      'run', '--rm', '--name', container, ...NODE_CONTAINER_FLAGS, ...network.flags,
      // cAdvisor's OOM watcher reads the kernel log; without it the kubelet stops at start.
      '--device=/dev/kmsg',
      `--volume=${stateDir}:${stateDir}`,
      '--entrypoint=/bin/sh', image, '-c', network.wrap(script),
    ],
    join(stateDir, 'kubelet.log'),
    { DOCKER_HOST: engine.host },
  );
  // Its `docker run` client is not the container: should this process die without stop(), the stack's
  // reaper removes the container (and the pods in it) by name.
  recordUndo(stateDir, [engine.client, '--host', engine.host, 'rm', '-f', container]);
  // Removing the node ends its PID namespace: the kubelet, containerd, the shims and every pod's
  // processes with it. Then the cgroups they leave (empty) go, deepest first.
  const stop = async () => {
    await engine.run(['rm', '-f', container], { timeoutMs: 60_000 }).catch((err: Error) => log(`removing node ${container}: ${err.message}`));
    await stopProcess(kubelet, 10_000);
    for (const h of hierarchies) removeCgroupTree(join(h, cgroupRoot));
  };
  try {
    await opts.cluster?.reach(healthzPort);
    await waitUntil(kubelet, 'answering on its healthz port', 120_000, async () => {
      const res = await fetch(`http://127.0.0.1:${healthzPort}/healthz`, { signal: AbortSignal.timeout(2_000) });
      return res.ok;
    });
  } catch (err) {
    await stop();
    throw err;
  }
  log(`kubelet node ${nodeName} (container ${container}) up in ${((Date.now() - t0) / 1000).toFixed(1)}s; kubelet log ${kubelet.logFile}`);
  const importImages = async (tags: string[]) => {
    const tar = join(kdir, `images-${Date.now().toString(36)}.tar`);
    try {
      await engine.run(['save', '-o', tar, ...tags], { timeoutMs: 120_000 });
      await engine.run(['exec', container, 'ctr', '--address', socket, '-n', 'k8s.io', 'images', 'import', tar], { timeoutMs: 120_000 });
    } finally {
      rmSync(tar, { force: true });
    }
  };
  // The CRI runtime needs its sandbox image before the first pod.
  await importImages([PAUSE_IMAGE]).catch(async (err: Error) => {
    await stop();
    throw new Error(`importing ${PAUSE_IMAGE} into the node: ${err.message}\n${tailOf(kubelet.logFile)}`);
  });
  return { nodeName, container, socket, kubelet, importImages, stop };
}
