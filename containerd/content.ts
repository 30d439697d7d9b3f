import { randomUUID } from 'node:crypto';
import type { CallOptions, Connection } from './connection.ts';
import { classifyContainerdError, ContainerdError } from './errors.ts';
import { sha256Digest } from './encoding.ts';
import type { Descriptor, WriteContentRequest, WriteContentResponse } from './wire.ts';

// Blobs in containerd's content store, by digest. Only small ones pass through here (an OCI index, a
// checkpoint's spec); a checkpoint's criu tar is written and read by containerd itself.

/** Reads a whole blob; refuses one larger than `maxBytes` rather than holding it in memory. */
export async function readBlob(conn: Connection, digest: string, opts: CallOptions & { maxBytes?: number } = {}): Promise<Buffer> {
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  const info = await conn.unary<{ info: { size: number } }>('content', 'Info', { digest }, opts);
  if (info.info.size > maxBytes) throw new ContainerdError('Invalid', undefined, `blob ${digest} is ${info.info.size} bytes, more than the ${maxBytes} read here`);
  const parts = await conn.serverStream<{ offset: number; data: Buffer }>('content', 'Read', { digest, offset: 0, size: 0 }, opts);
  return Buffer.concat(parts.map((p) => p.data));
}

export interface WriteBlobOptions extends CallOptions {
  mediaType: string;
  /** Set on the committed blob (gc.ref labels that keep its children). */
  labels?: Record<string, string>;
  /** The ingest's name; one write at a time holds it. */
  ref?: string;
}

/**
 * Writes and commits a blob in one message (digest and size checked by containerd). A blob that is
 * already there counts as written: the same bytes, so the same labels.
 */
export async function writeBlob(conn: Connection, bytes: Buffer, opts: WriteBlobOptions): Promise<Descriptor> {
  const descriptor: Descriptor = { media_type: opts.mediaType, digest: sha256Digest(bytes), size: bytes.length };
  const stream = conn.duplex<WriteContentRequest, WriteContentResponse>('content', 'Write', opts);
  const done = new Promise<WriteContentResponse>((resolve, reject) => {
    let response: WriteContentResponse | undefined;
    stream.on('data', (r: WriteContentResponse) => {
      response = r;
      stream.end();
    });
    stream.on('error', reject);
    stream.on('end', () => (response ? resolve(response) : reject(new ContainerdError('Unknown', undefined, `content write of ${descriptor.digest} ended without an answer`))));
  });
  stream.write({
    action: 'COMMIT',
    ref: opts.ref ?? `kubeairunway-${randomUUID()}`,
    total: bytes.length,
    expected: descriptor.digest,
    offset: 0,
    data: bytes,
    labels: opts.labels ?? {},
  });
  try {
    const response = await done;
    if (response.digest && response.digest !== descriptor.digest) {
      throw new ContainerdError('Unknown', undefined, `content write committed ${response.digest}, expected ${descriptor.digest}`);
    }
  } catch (err) {
    const e = classifyContainerdError(err, opts.operation);
    if (e.type !== 'AlreadyExists') throw e;
  }
  return descriptor;
}

/** Whether the content store holds a blob (for tests and cleanup checks). */
export async function hasBlob(conn: Connection, digest: string, opts: CallOptions = {}): Promise<boolean> {
  try {
    await conn.unary('content', 'Info', { digest }, opts);
    return true;
  } catch (err) {
    if (classifyContainerdError(err).type === 'NotFound') return false;
    throw err;
  }
}
