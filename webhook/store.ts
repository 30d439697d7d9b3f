// Where the certificates live between processes. Every replica reads the same record, and changes it
// only with optimistic concurrency (create-if-absent, update-if-unchanged), so two replicas that
// rotate at the same moment agree on one winner instead of overwriting each other.

import type { CertificateSet } from './certificates.ts';

export interface StoredCertificates {
  /** What every replica serves. */
  current: CertificateSet;
  /** CA certificates the API server must trust (caBundle): current, a prepared next one, older ones until they expire. */
  bundle: string[];
  /** A rotation in progress: published in the bundle, served once the API server had time to see it. */
  next?: CertificateSet;
}

export interface StoreRecord {
  /** undefined when the record exists but does not hold usable certificates (hand-edited, truncated). */
  value: StoredCertificates | undefined;
  version: string;
}

export interface CertificateStore {
  /** undefined when there is no record at all. */
  read(): Promise<StoreRecord | undefined>;
  /** false when a record already exists (another replica was first). */
  create(value: StoredCertificates): Promise<boolean>;
  /** false when the record changed since `version` was read. */
  update(value: StoredCertificates, version: string): Promise<boolean>;
}

/** A store in memory, for tests and for a single process that needs no sharing. */
export class MemoryCertificateStore implements CertificateStore {
  private record: { value: StoredCertificates | undefined; version: number } | undefined;
  /** Every value written, oldest first (tests read the history of a rotation). */
  readonly writes: StoredCertificates[] = [];

  async read(): Promise<StoreRecord | undefined> {
    return this.record ? { value: this.record.value && structuredClone(this.record.value), version: String(this.record.version) } : undefined;
  }

  async create(value: StoredCertificates): Promise<boolean> {
    if (this.record) return false;
    this.record = { value: structuredClone(value), version: 1 };
    this.writes.push(structuredClone(value));
    return true;
  }

  async update(value: StoredCertificates, version: string): Promise<boolean> {
    if (!this.record || String(this.record.version) !== version) return false;
    this.record = { value: structuredClone(value), version: this.record.version + 1 };
    this.writes.push(structuredClone(value));
    return true;
  }

  /** Overwrites the record as a hand edit would (tests of recovery). */
  corrupt(): void {
    this.record = { value: undefined, version: (this.record?.version ?? 0) + 1 };
  }
}
