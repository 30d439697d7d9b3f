import { createHash } from 'node:crypto';
import { join } from 'node:path';
import protobuf from 'protobufjs';
import { PROTO_DIR } from './connection.ts';
import type { Any, Descriptor } from './wire.ts';

// What goes inside containerd's google.protobuf.Any fields and content blobs, encoded the way containerd's
// Go client does it, so that containerd (and `ctr`) read ours and we read theirs. Pure: no I/O but the
// .proto file read once.

/**
 * Type URLs as containerd's typeurl registry knows them: protobuf messages by their bare full name (no
 * type.googleapis.com/ prefix, which containerd 1.x cannot resolve), the OCI spec by its registered URL
 * with JSON as the value.
 */
export const TYPE_URL = {
  spec: 'types.containerd.io/opencontainers/runtime-spec/1/Spec',
  runcOptions: 'containerd.runc.v1.Options',
  checkpointOptions: 'containerd.runc.v1.CheckpointOptions',
} as const;

export const MEDIA_TYPE = {
  index: 'application/vnd.oci.image.index.v1+json',
  /** The criu dump of the task's processes, as a tar. */
  checkpoint: 'application/vnd.containerd.container.criu.checkpoint.criu.tar',
  /** The container's spec at dump time: a protobuf-encoded Any holding the JSON spec. */
  checkpointConfig: 'application/vnd.containerd.container.checkpoint.config.v1+proto',
} as const;

/** Marks an image as a checkpoint (containerd's Go client sets the same label). */
export const CHECKPOINT_LABEL = 'containerd.io/checkpoint';

let root: protobuf.Root | undefined;
function types(): protobuf.Root {
  if (!root) {
    root = new protobuf.Root();
    root.loadSync(join(PROTO_DIR, 'runc.proto'));
    root.loadSync('google/protobuf/any.proto');
  }
  return root;
}

export interface RuncCheckpointOptions {
  /** Stop the task after the dump (the seed's leaveRunning: false). */
  exit?: boolean;
  openTcp?: boolean;
  externalUnixSockets?: boolean;
  fileLocks?: boolean;
  /** Where CRIU writes the dump; the shim's own temporary folder when omitted. */
  imagePath?: string;
  /** Where CRIU writes its work files and logs (dump.log). */
  workPath?: string;
}

export function packCheckpointOptions(opts: RuncCheckpointOptions): Any {
  const type = types().lookupType('containerd.runc.v1.CheckpointOptions');
  const message = type.fromObject({
    exit: opts.exit ?? false,
    openTcp: opts.openTcp ?? false,
    externalUnixSockets: opts.externalUnixSockets ?? false,
    fileLocks: opts.fileLocks ?? false,
    imagePath: opts.imagePath ?? '',
    workPath: opts.workPath ?? '',
  });
  return { type_url: TYPE_URL.checkpointOptions, value: Buffer.from(type.encode(message).finish()) };
}

export interface RuncOptions {
  /** runc's state folder (default /run/containerd/runc/<namespace>). */
  root?: string;
  /** The runc binary (default: runc on the shim's PATH). */
  binaryName?: string;
  /** CRIU's work folder for a restore (its restore.log). */
  criuWorkPath?: string;
}

export function packRuncOptions(opts: RuncOptions): Any {
  const type = types().lookupType('containerd.runc.v1.Options');
  const message = type.fromObject({ root: opts.root ?? '', binaryName: opts.binaryName ?? '', criuWorkPath: opts.criuWorkPath ?? '' });
  return { type_url: TYPE_URL.runcOptions, value: Buffer.from(type.encode(message).finish()) };
}

/** Decodes an Any we packed (tests, and reading back what containerd stored). */
export function unpackRunc(any: Any): Record<string, unknown> {
  const name = any.type_url === TYPE_URL.checkpointOptions ? 'CheckpointOptions' : any.type_url === TYPE_URL.runcOptions ? 'Options' : undefined;
  if (!name) throw new Error(`not a runc options type: ${any.type_url}`);
  const type = types().lookupType(`containerd.runc.v1.${name}`);
  return type.toObject(type.decode(any.value), { defaults: true, arrays: true });
}

export function packSpec(spec: object): Any {
  return { type_url: TYPE_URL.spec, value: Buffer.from(JSON.stringify(spec)) };
}

export function unpackSpec(any: Any): Record<string, unknown> {
  if (any.type_url !== TYPE_URL.spec) throw new Error(`not an OCI runtime spec: ${any.type_url}`);
  return JSON.parse(Buffer.from(any.value).toString('utf8')) as Record<string, unknown>;
}

/** The checkpoint's config blob: google.protobuf.Any in protobuf bytes, as containerd writes it. */
export function decodeAnyBytes(bytes: Uint8Array): Any {
  const type = types().lookupType('google.protobuf.Any');
  const any = type.toObject(type.decode(bytes), { defaults: true });
  return { type_url: String(any[anyUrlField(type)] ?? ''), value: Buffer.from(any.value as Uint8Array) };
}

export function encodeAnyBytes(any: Any): Buffer {
  const type = types().lookupType('google.protobuf.Any');
  return Buffer.from(type.encode(type.fromObject({ [anyUrlField(type)]: any.type_url, value: any.value })).finish());
}

// protobufjs keeps the snake_case name of its built-in Any but camel-cases fields parsed from .proto text.
function anyUrlField(type: protobuf.Type): string {
  return type.fields.type_url ? 'type_url' : 'typeUrl';
}

export function sha256Digest(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** Node's name for the CPU, as Go (and so OCI platforms) names it. */
export function goArch(arch: string = process.arch): string {
  return ({ x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm', ppc64: 'ppc64le', s390x: 's390x', riscv64: 'riscv64' } as Record<string, string>)[arch] ?? arch;
}

export interface OciIndex {
  schemaVersion: 2;
  mediaType: string;
  manifests: { mediaType: string; digest: string; size: number; platform?: { os: string; architecture: string }; annotations?: Record<string, string> }[];
  annotations?: Record<string, string>;
}

export interface EncodedBlob {
  bytes: Buffer;
  descriptor: Descriptor;
  /**
   * Labels for the blob in the content store: `containerd.io/gc.ref.content.<i>` for each child, which is
   * what keeps the children alive once the lease that wrote them ends (only the image refers to the index).
   */
  labels: Record<string, string>;
}

/** The OCI index a task checkpoint's image points at: the checkpoint's descriptors as its manifests. */
export function checkpointIndex(descriptors: readonly Descriptor[], platform = { os: 'linux', architecture: goArch() }): EncodedBlob {
  const index: OciIndex = {
    schemaVersion: 2,
    mediaType: MEDIA_TYPE.index,
    manifests: descriptors.map((d) => ({
      mediaType: d.media_type,
      digest: d.digest,
      size: d.size,
      platform,
      ...(d.annotations && Object.keys(d.annotations).length > 0 ? { annotations: d.annotations } : {}),
    })),
  };
  const bytes = Buffer.from(JSON.stringify(index));
  const labels = Object.fromEntries(descriptors.map((d, i) => [`containerd.io/gc.ref.content.${i}`, d.digest]));
  return { bytes, descriptor: { media_type: MEDIA_TYPE.index, digest: sha256Digest(bytes), size: bytes.length }, labels };
}

/** The parts of a checkpoint image's index: the criu tar (required to restore) and the spec (if any). */
export function checkpointParts(indexBytes: Uint8Array): { checkpoint: Descriptor | undefined; config: Descriptor | undefined; all: Descriptor[] } {
  const index = JSON.parse(Buffer.from(indexBytes).toString('utf8')) as Partial<OciIndex>;
  const all: Descriptor[] = (index.manifests ?? []).map((m) => ({ media_type: m.mediaType, digest: m.digest, size: m.size, annotations: m.annotations ?? {} }));
  return { checkpoint: all.find((d) => d.media_type === MEDIA_TYPE.checkpoint), config: all.find((d) => d.media_type === MEDIA_TYPE.checkpointConfig), all };
}

/**
 * `containerd.io/checkpoint/<container id>:<UTC time to the millisecond>`: containerd's Go client's
 * form, with a time that is a valid image tag and does not repeat within a second.
 */
export function checkpointName(containerId: string, at: Date = new Date()): string {
  const stamp = at.toISOString().replace(/[-:]/g, '');
  return `containerd.io/checkpoint/${containerId}:${stamp}`;
}
