// The messages of containerd/proto/*.proto as @grpc/proto-loader gives and takes them (snake_case field
// names, enums by name, int64 as numbers, bytes as Buffers); only what this client reads or writes.

export interface Any {
  type_url: string;
  value: Buffer;
}

export interface Descriptor {
  media_type: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
}

export interface Mount {
  type: string;
  source: string;
  target?: string;
  options: string[];
}

export interface Timestamp {
  seconds: number;
  nanos: number;
}

export type WireTaskStatus = 'UNKNOWN' | 'CREATED' | 'RUNNING' | 'STOPPED' | 'PAUSED' | 'PAUSING';

export interface Process {
  container_id: string;
  id: string;
  pid: number;
  status: WireTaskStatus;
  exit_status: number;
  exited_at: Timestamp | null;
}

export interface Container {
  id: string;
  labels: Record<string, string>;
  image: string;
  runtime: { name: string; options: Any | null } | null;
  spec: Any | null;
  snapshotter: string;
  snapshot_key: string;
}

export interface Image {
  name: string;
  labels: Record<string, string>;
  target: Descriptor | null;
  created_at: Timestamp | null;
}

export interface CreateTaskRequest {
  container_id: string;
  rootfs: Mount[];
  stdin: string;
  stdout: string;
  stderr: string;
  terminal: boolean;
  checkpoint?: Descriptor;
  options?: Any;
}

export interface WriteContentRequest {
  action: 'STAT' | 'WRITE' | 'COMMIT';
  ref: string;
  total: number;
  expected: string;
  offset: number;
  data: Buffer;
  labels: Record<string, string>;
}

export interface WriteContentResponse {
  action: string;
  offset: number;
  total: number;
  digest: string;
}

export function timestampToIso(ts: Timestamp | null | undefined): string | undefined {
  if (!ts || (!ts.seconds && !ts.nanos)) return undefined;
  return new Date(ts.seconds * 1000 + Math.floor(ts.nanos / 1e6)).toISOString();
}

export interface DeleteResponseWire {
  id: string;
  pid: number;
  exit_status: number;
}
