// A minimal OCI runtime spec for a Linux container, as containerd's Go client builds by default
// (oci.populateDefaultUnixSpec): its own pid, ipc, uts, mount and network namespaces, the usual /proc,
// /dev and /sys mounts, containerd's default capabilities, masked and read-only kernel paths.

export interface SpecOptions {
  /** containerd namespace and container id: the container's cgroup is /<namespace>/<id>, as containerd's. */
  namespace: string;
  id: string;
  /** The root file system: a host folder, or (empty) the rootfs folder of the bundle a snapshot is mounted at. */
  rootPath?: string;
  args: string[];
  env?: string[];
  cwd?: string;
  hostname?: string;
}

const CAPS = [
  'CAP_CHOWN',
  'CAP_DAC_OVERRIDE',
  'CAP_FSETID',
  'CAP_FOWNER',
  'CAP_MKNOD',
  'CAP_NET_RAW',
  'CAP_SETGID',
  'CAP_SETUID',
  'CAP_SETFCAP',
  'CAP_SETPCAP',
  'CAP_NET_BIND_SERVICE',
  'CAP_SYS_CHROOT',
  'CAP_KILL',
  'CAP_AUDIT_WRITE',
];

const DEFAULT_PATH = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function defaultSpec(opts: SpecOptions): Record<string, unknown> {
  return {
    ociVersion: '1.0.2',
    root: { path: opts.rootPath ?? 'rootfs', readonly: false },
    hostname: opts.hostname ?? opts.id,
    process: {
      terminal: false,
      user: { uid: 0, gid: 0 },
      args: opts.args,
      env: opts.env ?? [DEFAULT_PATH],
      cwd: opts.cwd ?? '/',
      capabilities: { bounding: CAPS, effective: CAPS, permitted: CAPS },
      rlimits: [{ type: 'RLIMIT_NOFILE', hard: 1024, soft: 1024 }],
      noNewPrivileges: true,
    },
    mounts: [
      { destination: '/proc', type: 'proc', source: 'proc', options: ['nosuid', 'noexec', 'nodev'] },
      { destination: '/dev', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
      { destination: '/dev/pts', type: 'devpts', source: 'devpts', options: ['nosuid', 'noexec', 'newinstance', 'ptmxmode=0666', 'mode=0620', 'gid=5'] },
      { destination: '/dev/shm', type: 'tmpfs', source: 'shm', options: ['nosuid', 'noexec', 'nodev', 'mode=1777', 'size=65536k'] },
      { destination: '/dev/mqueue', type: 'mqueue', source: 'mqueue', options: ['nosuid', 'noexec', 'nodev'] },
      { destination: '/sys', type: 'sysfs', source: 'sysfs', options: ['nosuid', 'noexec', 'nodev', 'ro'] },
      { destination: '/run', type: 'tmpfs', source: 'tmpfs', options: ['nosuid', 'strictatime', 'mode=755', 'size=65536k'] },
    ],
    linux: {
      cgroupsPath: `/${opts.namespace}/${opts.id}`,
      resources: { devices: [{ allow: false, access: 'rwm' }] },
      namespaces: [{ type: 'pid' }, { type: 'ipc' }, { type: 'uts' }, { type: 'mount' }, { type: 'network' }],
      maskedPaths: [
        '/proc/acpi',
        '/proc/asound',
        '/proc/kcore',
        '/proc/keys',
        '/proc/latency_stats',
        '/proc/timer_list',
        '/proc/timer_stats',
        '/proc/sched_debug',
        '/sys/firmware',
        '/proc/scsi',
      ],
      readonlyPaths: ['/proc/bus', '/proc/fs', '/proc/irq', '/proc/sys', '/proc/sysrq-trigger'],
    },
  };
}
