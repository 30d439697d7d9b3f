import { fileURLToPath } from 'node:url';
import { credentials, loadPackageDefinition, Metadata, type Client, type ClientDuplexStream, type ClientReadableStream, type GrpcObject, type ServiceClientConstructor } from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import { classifyContainerdError, type ContainerdOperation } from './errors.ts';

// One gRPC connection to containerd's socket. Every call carries the namespace (containerd keeps each
// namespace's containers, images and content apart; kubelet's are in k8s.io), optionally a lease, and a
// deadline; every failure leaves as a classified ContainerdError.

/** containerd's API subset, in our own .proto files (see containerd/proto/types.proto). */
export const PROTO_DIR = fileURLToPath(new URL('./proto/', import.meta.url));
const PROTO_FILES = ['version.proto', 'namespaces.proto', 'tasks.proto', 'containers.proto', 'images.proto', 'content.proto', 'snapshots.proto', 'leases.proto'];

const SERVICES = {
  version: 'containerd.services.version.v1.Version',
  namespaces: 'containerd.services.namespaces.v1.Namespaces',
  tasks: 'containerd.services.tasks.v1.Tasks',
  containers: 'containerd.services.containers.v1.Containers',
  images: 'containerd.services.images.v1.Images',
  content: 'containerd.services.content.v1.Content',
  snapshots: 'containerd.services.snapshots.v1.Snapshots',
  leases: 'containerd.services.leases.v1.Leases',
} as const;
export type ServiceName = keyof typeof SERVICES;

export const NAMESPACE_HEADER = 'containerd-namespace';
export const LEASE_HEADER = 'containerd-lease';

let loaded: GrpcObject | undefined;
function definitions(): GrpcObject {
  // snake_case fields as in the .proto files; enums by name; int64 as numbers (sizes stay far below 2^53).
  loaded ??= loadPackageDefinition(
    loadSync(PROTO_FILES, { includeDirs: [PROTO_DIR], keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true }),
  );
  return loaded;
}

function serviceConstructor(fullName: string): ServiceClientConstructor {
  let node: unknown = definitions();
  for (const part of fullName.split('.')) node = (node as Record<string, unknown>)[part];
  if (typeof node !== 'function') throw new Error(`no service ${fullName} in ${PROTO_DIR}`);
  return node as ServiceClientConstructor;
}

export interface ConnectionOptions {
  /** containerd's gRPC socket, e.g. /run/containerd/containerd.sock. */
  socket: string;
  /** containerd namespace for every call (kubelet's containers are in k8s.io). */
  namespace: string;
  /** Deadline of a call that gives none (default 30 s). */
  timeoutMs?: number;
}

export interface CallOptions {
  /** Holds what the call writes (content, snapshots) from garbage collection until the lease ends. */
  lease?: string;
  timeoutMs?: number;
  /** Cancels the call (an activity's cancellation). */
  signal?: AbortSignal;
  /** What a runtime failure of this call means (see classifyContainerdError). */
  operation?: ContainerdOperation;
}

type Callback<T> = (err: Error | null, value?: T) => void;
type UnaryMethod = (request: unknown, metadata: Metadata, options: { deadline: Date }, callback: Callback<unknown>) => { cancel(): void };

export class Connection {
  readonly namespace: string;
  readonly socket: string;
  private readonly timeoutMs: number;
  private readonly clients = new Map<ServiceName, Client>();

  constructor(opts: ConnectionOptions) {
    this.socket = opts.socket;
    this.namespace = opts.namespace;
    this.timeoutMs = opts.timeoutMs ?? 30_000;
  }

  private client(service: ServiceName): Client {
    let client = this.clients.get(service);
    if (!client) {
      const Ctor = serviceConstructor(SERVICES[service]);
      // The clients share one channel: grpc-js pools connections by target and options.
      client = new Ctor(`unix://${this.socket}`, credentials.createInsecure(), { 'grpc.max_receive_message_length': 64 * 1024 * 1024 });
      this.clients.set(service, client);
    }
    return client;
  }

  metadata(opts: CallOptions = {}): Metadata {
    const md = new Metadata();
    md.set(NAMESPACE_HEADER, this.namespace);
    if (opts.lease) md.set(LEASE_HEADER, opts.lease);
    return md;
  }

  private deadline(opts: CallOptions): Date {
    return new Date(Date.now() + (opts.timeoutMs ?? this.timeoutMs));
  }

  unary<Res>(service: ServiceName, method: string, request: object, opts: CallOptions = {}): Promise<Res> {
    const client = this.client(service) as unknown as Record<string, UnaryMethod>;
    const fn = client[method];
    if (typeof fn !== 'function') return Promise.reject(new Error(`${SERVICES[service]} has no method ${method}`));
    if (opts.signal?.aborted) return Promise.reject(classifyContainerdError(opts.signal.reason ?? new Error('aborted'), opts.operation));
    return new Promise<Res>((resolve, reject) => {
      const call = fn.call(client, request, this.metadata(opts), { deadline: this.deadline(opts) }, (err, value) => {
        opts.signal?.removeEventListener('abort', cancel);
        if (err) reject(classifyContainerdError(err, opts.operation));
        else resolve(value as Res);
      });
      const cancel = () => call.cancel();
      opts.signal?.addEventListener('abort', cancel, { once: true });
    });
  }

  /** A server stream, read to its end. */
  async serverStream<Res>(service: ServiceName, method: string, request: object, opts: CallOptions = {}): Promise<Res[]> {
    const client = this.client(service) as unknown as Record<string, (req: unknown, md: Metadata, o: { deadline: Date }) => ClientReadableStream<Res>>;
    const stream = client[method]!.call(client, request, this.metadata(opts), { deadline: this.deadline(opts) });
    const cancel = () => stream.cancel();
    opts.signal?.addEventListener('abort', cancel, { once: true });
    const out: Res[] = [];
    try {
      for await (const message of stream) out.push(message as Res);
      return out;
    } catch (err) {
      throw classifyContainerdError(err, opts.operation);
    } finally {
      opts.signal?.removeEventListener('abort', cancel);
    }
  }

  /** A bidirectional stream, for the caller to drive (content writes). */
  duplex<Req, Res>(service: ServiceName, method: string, opts: CallOptions = {}): ClientDuplexStream<Req, Res> {
    const client = this.client(service) as unknown as Record<string, (md: Metadata, o: { deadline: Date }) => ClientDuplexStream<Req, Res>>;
    return client[method]!.call(client, this.metadata(opts), { deadline: this.deadline(opts) });
  }

  close(): void {
    for (const client of this.clients.values()) client.close();
    this.clients.clear();
  }
}
