// The Kybernate module's flags of `kubeairunway run` and its two parts: the node worker (a DaemonSet's
// process, named by `--node`) and the activator (in the controller's process, on `--activator-port`).
// Light: each part's code is loaded only when it starts.

import type { KindPart, RunFlag, RunFlagValues } from '../kind-module.ts';

/** Where containerd listens on a node unless `--containerd-socket` says otherwise. */
export const DEFAULT_CONTAINERD_SOCKET = '/run/containerd/containerd.sock';

export const kybernateFlags: readonly RunFlag[] = [
  { flag: '--node', description: "run this node's worker beside containerd (Kybernate checkpoints); a DaemonSet's process" },
  { flag: '--node-name <name>', value: 'text', env: 'NODE_NAME', description: 'the Kubernetes node this process runs on (with --node)' },
  { flag: '--containerd-socket <path>', value: 'text', env: 'CONTAINERD_SOCKET', description: `containerd's socket on this node (with --node; default ${DEFAULT_CONTAINERD_SOCKET})` },
  {
    flag: '--activator-port <port>',
    value: 'port',
    description: "serve the KybernateWorkloads' activator (wake on request: /<namespace>/<workload>/<path>) on this port (0: any free port); none without it",
  },
  { flag: '--activator-address <host>', value: 'text', default: '0.0.0.0', description: 'address the activator listens on' },
];

const text = (flags: RunFlagValues, name: string): string | undefined => {
  const value = flags[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

export const nodeWorkerPart: KindPart = {
  name: 'node worker',
  about: 'serves the node task queue beside containerd (checkpoint and restore dumps); `kubeairunway run --node`, no Kubernetes right',
  module: 'kinds/kybernate/node-worker.ts',
  namedBy: 'node',
  configure(flags) {
    if (flags.node !== true) return undefined;
    const name = text(flags, 'nodeName');
    if (!name) throw new Error("--node needs the node's name: --node-name or NODE_NAME (in a DaemonSet, from spec.nodeName).");
    const node = { name, containerdSocket: text(flags, 'containerdSocket') ?? DEFAULT_CONTAINERD_SOCKET };
    return async (ctx) => (await import('./node-worker.ts')).startNodeWorker(ctx, node);
  },
};

export const activatorPart: KindPart = {
  name: 'activator',
  about: "wakes a suspended KybernateWorkload on a request and signals its activity; `kubeairunway run --activator-port`, the controller's process",
  module: 'kinds/kybernate/activator/server.ts',
  configure(flags) {
    const port = flags.activatorPort;
    if (port === undefined) return undefined;
    if (typeof port !== 'number') throw new Error(`--activator-port takes a port number, got '${String(port)}'.`);
    const host = text(flags, 'activatorAddress') ?? '0.0.0.0';
    return async (ctx) =>
      (await import('./activator/server.ts')).startActivator({ kc: ctx.kc, client: ctx.client, informers: ctx.informers, namespaces: ctx.namespaces, host, port, log: ctx.log });
  },
};
