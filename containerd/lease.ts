import { randomUUID } from 'node:crypto';
import type { Connection } from './connection.ts';

/**
 * Runs `fn` under a fresh lease: what containerd writes for calls that carry it (checkpoint blobs, an
 * index, a snapshot) is safe from garbage collection until something permanent (an image, a container)
 * refers to it. The lease is deleted afterwards; should that fail (containerd gone), it expires by itself.
 */
export async function withLease<T>(conn: Connection, fn: (lease: string) => Promise<T>, expiresInMs = 24 * 3600_000): Promise<T> {
  const id = `kubeairunway-${randomUUID()}`;
  await conn.unary('leases', 'Create', { id, labels: { 'containerd.io/gc.expire': new Date(Date.now() + expiresInMs).toISOString() } });
  try {
    return await fn(id);
  } finally {
    await conn.unary('leases', 'Delete', { id, sync: false }).catch(() => undefined);
  }
}
