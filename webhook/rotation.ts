// Keeps the serving certificate valid without ever presenting one the API server does not trust yet.
//
// A rotation has two steps, each one optimistic-concurrency write to the shared store:
//   prepare: generate a new CA and serving certificate as `next`, add the new CA to the bundle and
//            publish the bundle (old + new CA) into the webhook configurations;
//   commit:  once the bundle has been published for `propagationDelayMs` (the API server reads webhook
//            configurations through an informer, so it sees them a moment later) and reads back as
//            published, promote `next` to `current` and serve it.
// Until commit, every replica serves the old certificate, which the bundle still trusts; after it, a
// replica that has not yet reread the store keeps serving the old one, still trusted, because an old
// CA leaves the bundle only when it expires. TLS connections already open keep their certificate,
// so no request in flight is cut.

import {
  coversHosts,
  generateCertificates,
  issuedAt,
  issuedBy,
  joinBundle,
  keyMatches,
  normalizePem,
  splitBundle,
  validityOf,
  type CertificateSet,
  type Hosts,
  type PemPair,
  type Validity,
} from './certificates.ts';
import type { CertificateStore, StoredCertificates } from './store.ts';

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Where the CA bundle goes: the webhook configurations' caBundle. */
export interface BundlePublisher {
  publish(bundlePem: string): Promise<void>;
  /** The caBundle of every webhook the publisher manages, as stored now. */
  published(): Promise<string[]>;
}

export interface RotationPolicy {
  /** Lifetime of a new CA and serving certificate (default 365 days). */
  validityMs: number;
  /** Rotate when less than this fraction of the lifetime is left (default 1/3). */
  rotateWhenRemaining: number;
  /** Time between publishing a new CA and serving a certificate it signed (default 5 s). */
  propagationDelayMs: number;
  /** How often the store is reread and the bundle republished (default 10 min). */
  checkIntervalMs: number;
  /** Most CA certificates kept in the bundle (default 8): forced rotations must not grow it without end. */
  maxBundle: number;
}

export const DEFAULT_POLICY: RotationPolicy = {
  validityMs: 365 * 24 * 3600_000,
  rotateWhenRemaining: 1 / 3,
  propagationDelayMs: 5_000,
  checkIntervalMs: 10 * 60_000,
  maxBundle: 8,
};

export type RotationEventType = 'created' | 'replaced' | 'prepared' | 'committed' | 'served';

export interface RotationEvent {
  type: RotationEventType;
  /** Expiry of the certificate the event is about. */
  notAfter: number | undefined;
}

export interface CertificateManagerOptions {
  store: CertificateStore;
  hosts: Hosts;
  policy?: Partial<RotationPolicy>;
  clock?: Clock;
  publisher?: BundlePublisher;
  /** Called with the pair to serve: first at start, then after every change. */
  onServing: (pair: PemPair) => void;
  onEvent?: (event: RotationEvent) => void;
  onError?: (err: unknown) => void;
}

interface Outcome {
  rotating: boolean;
  /** When this replica should look again. */
  nextCheckMs: number;
}

const MAX_CONFLICTS = 8;
const ERROR_RETRY_MS = 5_000;

export class CertificateManager {
  readonly policy: RotationPolicy;
  private readonly clock: Clock;
  private servingPem: string | undefined;
  private publishedBundle: { pem: string; at: number } | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private latest: StoredCertificates | undefined;

  constructor(private readonly opts: CertificateManagerOptions) {
    this.policy = { ...DEFAULT_POLICY, ...opts.policy };
    this.clock = opts.clock ?? systemClock;
  }

  /** Loads or creates the certificates, publishes the bundle, serves, and keeps checking in the background. */
  async start(): Promise<void> {
    const outcome = await this.tick();
    this.running = true;
    this.schedule(outcome.nextCheckMs);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** The CA bundle the API server must trust now (PEM). */
  get bundlePem(): string {
    return this.latest ? joinBundle(this.latest.bundle) : '';
  }

  /** The certificate served now. */
  get servingCertPem(): string | undefined {
    return this.servingPem;
  }

  /** One look at the store; `force` starts a rotation even when none is due. Serialized with every other tick. */
  tick(force = false): Promise<Outcome> {
    const run = this.queue.then(() => this.tickOnce(force));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Rotates now and resolves once the new certificate is served (after the propagation delay). */
  async rotateNow(): Promise<void> {
    let outcome = await this.tick(true);
    for (let i = 0; outcome.rotating; i++) {
      if (i > 50) throw new Error('certificate rotation did not complete: the published CA bundle never read back as expected');
      await this.clock.sleep(outcome.nextCheckMs);
      outcome = await this.tick();
    }
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    // Timers hold at most ~24.8 days; the check interval is far below that anyway.
    this.timer = setTimeout(() => void this.background(), Math.max(0, Math.min(ms, this.policy.checkIntervalMs, 2 ** 31 - 1)));
    this.timer.unref();
  }

  private async background(): Promise<void> {
    try {
      const outcome = await this.tick();
      this.schedule(outcome.nextCheckMs);
    } catch (err) {
      this.opts.onError?.(err);
      this.schedule(ERROR_RETRY_MS);
    }
  }

  private async tickOnce(force: boolean): Promise<Outcome> {
    const { store } = this.opts;
    for (let attempt = 0; attempt < MAX_CONFLICTS; attempt++) {
      const now = this.clock.now();
      const record = await store.read();
      if (!record) {
        const value = await this.fresh([], now);
        if (!(await store.create(value))) continue;
        this.event('created', value.current);
        return this.adopt(value, now);
      }

      const stored = record.value && this.normalize(record.value);
      if (!stored || !this.usable(stored.current, now)) {
        // Nothing trustworthy to overlap with: replace at once. Requests fail open meanwhile.
        const value = await this.fresh(stored?.bundle ?? [], now);
        if (!(await store.update(value, record.version))) continue;
        this.event('replaced', value.current);
        return this.adopt(value, now);
      }

      if (stored.next && this.usable(stored.next, now)) {
        await this.ensurePublished(stored.bundle, now);
        if (await this.propagated(stored, now)) {
          const value: StoredCertificates = { current: stored.next, bundle: this.prune(stored.bundle, now) };
          if (!(await store.update(value, record.version))) continue;
          this.event('committed', value.current);
          return this.adopt(value, now);
        }
        return this.adopt(stored, now);
      }

      if (force || stored.next || this.due(stored.current, now)) {
        // A `next` that is no longer usable (it expired while nobody committed it, or the hosts
        // changed) is replaced by a fresh one.
        const next = await this.generate(now);
        const value: StoredCertificates = { current: stored.current, next, bundle: this.prune([next.caPem, ...stored.bundle], now) };
        if (!(await store.update(value, record.version))) continue;
        this.event('prepared', next);
        return this.adopt(value, now);
      }
      // Steady state: publish again anyway, so a caBundle edited by hand or by an old install heals.
      await this.ensurePublished(stored.bundle, now, true);
      return this.adopt(stored, now);
    }
    throw new Error(`certificate store changed ${MAX_CONFLICTS} times while being updated; will retry`);
  }

  /** Publishes the bundle when it changed (or was never published), then serves `current`. */
  private async adopt(value: StoredCertificates, now: number): Promise<Outcome> {
    await this.ensurePublished(value.bundle, now);
    this.latest = value;
    const pair = value.current.serving;
    if (this.servingPem !== pair.certPem) {
      this.opts.onServing(pair);
      this.servingPem = pair.certPem;
      this.event('served', value.current);
    }
    if (value.next) {
      const ready = (this.publishedBundle?.at ?? now) + this.policy.propagationDelayMs;
      return { rotating: true, nextCheckMs: Math.max(0, ready - now) };
    }
    const validity = validityOf(pair.certPem);
    const rotateAt = validity ? this.rotateAt(validity) : now;
    return { rotating: false, nextCheckMs: Math.max(0, Math.min(this.policy.checkIntervalMs, rotateAt - now)) };
  }

  private async ensurePublished(bundle: readonly string[], now: number, always = false): Promise<void> {
    const pem = joinBundle(bundle);
    if (!always && this.publishedBundle?.pem === pem) return;
    await this.opts.publisher?.publish(pem);
    this.publishedBundle = { pem, at: now };
  }

  /** Whether the API server has had time to see the bundle that trusts `next`, and the configurations still hold it. */
  private async propagated(stored: StoredCertificates, now: number): Promise<boolean> {
    const published = this.publishedBundle;
    if (!published || published.pem !== joinBundle(stored.bundle)) return false;
    if (now - published.at < this.policy.propagationDelayMs) return false;
    if (!this.opts.publisher || !stored.next) return true;
    const nextCa = normalizePem(stored.next.caPem);
    const live = await this.opts.publisher.published();
    if (live.length > 0 && live.every((b) => splitBundle(b).includes(nextCa))) return true;
    // Another writer (a replica with an older view, a person) replaced the caBundle: publish again and wait again.
    await this.ensurePublished(stored.bundle, now, true);
    return false;
  }

  private async generate(now: number): Promise<CertificateSet> {
    return generateCertificates({ hosts: this.opts.hosts, now, validityMs: this.policy.validityMs });
  }

  private async fresh(previousBundle: readonly string[], now: number): Promise<StoredCertificates> {
    const current = await this.generate(now);
    return { current, bundle: this.prune([current.caPem, ...previousBundle], now) };
  }

  /** The invariant every reader relies on: the bundle trusts `next` and `current`, whatever the store held. */
  private normalize(value: StoredCertificates): StoredCertificates {
    const bundle = [...(value.next ? [value.next.caPem] : []), value.current.caPem, ...value.bundle];
    return { ...value, bundle: dedupe(bundle.map(normalizePem)) };
  }

  /** Drops expired CAs and keeps the newest few; the first entries are the ones in use. */
  private prune(bundle: readonly string[], now: number): string[] {
    const live = dedupe(bundle.map(normalizePem)).filter((pem) => (validityOf(pem)?.notAfter ?? 0) > now);
    return live.slice(0, this.policy.maxBundle);
  }

  private usable(set: CertificateSet, now: number): boolean {
    const validity = validityOf(set.serving.certPem);
    return (
      validity !== undefined &&
      validity.notBefore <= now &&
      validity.notAfter > now &&
      coversHosts(set.serving.certPem, this.opts.hosts) &&
      issuedBy(set.serving.certPem, set.caPem) &&
      keyMatches(set.serving)
    );
  }

  private rotateAt(validity: Validity): number {
    return validity.notAfter - (validity.notAfter - issuedAt(validity)) * this.policy.rotateWhenRemaining;
  }

  private due(set: CertificateSet, now: number): boolean {
    const validity = validityOf(set.serving.certPem);
    return !validity || now >= this.rotateAt(validity);
  }

  private event(type: RotationEventType, set: CertificateSet): void {
    this.opts.onEvent?.({ type, notAfter: validityOf(set.serving.certPem)?.notAfter });
  }
}

function dedupe(items: readonly string[]): string[] {
  return [...new Set(items)];
}
