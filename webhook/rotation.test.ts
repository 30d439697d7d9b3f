import { describe, expect, it } from 'vitest';
import { hostsFrom, issuedBy, joinBundle, splitBundle, validityOf, type PemPair } from './certificates.ts';
import { CertificateManager, type BundlePublisher, type Clock, type RotationPolicy } from './rotation.ts';
import { MemoryCertificateStore, type CertificateStore, type StoredCertificates } from './store.ts';

const HOUR = 3600_000;
const hosts = hostsFrom(['127.0.0.1', 'localhost']);
const policy: Partial<RotationPolicy> = { validityMs: 3 * HOUR, propagationDelayMs: 5_000, checkIntervalMs: 10 * 60_000 };

class FakeClock implements Clock {
  constructor(public t = Date.now()) {}
  now = (): number => this.t;
  sleep = async (ms: number): Promise<void> => {
    this.t += ms;
  };
}

/** The webhook configurations as the API server holds them: what was last published. */
class FakePublisher implements BundlePublisher {
  current = '';
  publishes = 0;
  tamper = false;
  async publish(bundle: string): Promise<void> {
    this.current = bundle;
    this.publishes++;
  }
  async published(): Promise<string[]> {
    return this.tamper ? ['', ''] : [this.current, this.current];
  }
}

interface Replica {
  manager: CertificateManager;
  served: PemPair[];
  /** Every served certificate had its CA in the published bundle at the moment it was served. */
  trustedWhenServed: boolean[];
}

function replica(store: CertificateStore, clock: Clock, publisher: FakePublisher, extra: Partial<RotationPolicy> = {}): Replica {
  const served: PemPair[] = [];
  const trustedWhenServed: boolean[] = [];
  const manager = new CertificateManager({
    store,
    hosts,
    clock,
    publisher,
    policy: { ...policy, ...extra },
    onServing: (pair) => {
      served.push(pair);
      trustedWhenServed.push(splitBundle(publisher.current).some((ca) => issuedBy(pair.certPem, ca)));
    },
  });
  return { manager, served, trustedWhenServed };
}

async function stored(store: MemoryCertificateStore): Promise<StoredCertificates> {
  return (await store.read())!.value!;
}

describe('CertificateManager: start', () => {
  it('creates certificates once, publishes the CA, serves the pair', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    const value = await stored(store);
    expect(store.writes).toHaveLength(1);
    expect(a.served).toEqual([value.current.serving]);
    expect(splitBundle(publisher.current)).toEqual([value.current.caPem]);
    expect(a.trustedWhenServed).toEqual([true]);
    expect(a.manager.bundlePem).toBe(publisher.current);
  });

  it('two replicas starting together agree on one certificate', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    const b = replica(store, clock, publisher);
    await Promise.all([a.manager.tick(), b.manager.tick()]);
    expect(store.writes).toHaveLength(1);
    expect(a.served[0]).toEqual(b.served[0]);
  });

  it('a second process reuses what the first stored', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    await replica(store, clock, publisher).manager.tick();
    const b = replica(store, clock, publisher);
    await b.manager.tick();
    expect(store.writes).toHaveLength(1);
    expect(b.served[0]).toEqual((await stored(store)).current.serving);
  });

  it('nothing to do before a third of the lifetime is left', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const a = replica(store, clock, new FakePublisher());
    await a.manager.tick();
    clock.t += 1.9 * HOUR;
    const outcome = await a.manager.tick();
    expect(store.writes).toHaveLength(1);
    expect(outcome.rotating).toBe(false);
  });
});

describe('CertificateManager: rotation before expiry', () => {
  it('publishes old+new CA first, serves the new certificate only after the propagation delay', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    const first = await stored(store);

    clock.t += 2.1 * HOUR; // less than a third of 3 h left
    let outcome = await a.manager.tick();
    const prepared = await stored(store);
    expect(outcome).toEqual({ rotating: true, nextCheckMs: 5_000 });
    expect(prepared.next).toBeDefined();
    expect(prepared.current).toEqual(first.current);
    expect(splitBundle(publisher.current)).toEqual([prepared.next!.caPem, first.current.caPem]);
    expect(a.served).toHaveLength(1);

    clock.t += 4_000;
    outcome = await a.manager.tick();
    expect(outcome.rotating).toBe(true);
    expect(a.served).toHaveLength(1);

    clock.t += 1_000;
    outcome = await a.manager.tick();
    const committed = await stored(store);
    expect(outcome.rotating).toBe(false);
    expect(committed.next).toBeUndefined();
    expect(committed.current).toEqual(prepared.next);
    // The old CA stays trusted until it expires: replicas that have not reread the store still serve it.
    expect(splitBundle(publisher.current)).toEqual([committed.current.caPem, first.current.caPem]);
    expect(a.served.map((p) => p.certPem)).toEqual([first.current.serving.certPem, committed.current.serving.certPem]);
    expect(a.trustedWhenServed).toEqual([true, true]);
    // Generated at prepare time, 5 s ago; X.509 times have whole seconds.
    expect(Math.abs(validityOf(committed.current.serving.certPem)!.notAfter - (clock.t - 5_000 + 3 * HOUR))).toBeLessThan(1_000);
  });

  it('a replica that rereads late still serves a trusted certificate, then switches', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    const b = replica(store, clock, publisher);
    await a.manager.tick();
    await b.manager.tick();
    clock.t += 2.1 * HOUR;
    await a.manager.rotateNow();
    // b has not looked yet: its certificate's CA is still in the bundle.
    expect(splitBundle(publisher.current).some((ca) => issuedBy(b.served.at(-1)!.certPem, ca))).toBe(true);
    await b.manager.tick();
    expect(b.served.at(-1)).toEqual(a.served.at(-1));
    expect(b.trustedWhenServed.every(Boolean)).toBe(true);
  });

  it('a replica seeing a prepared rotation waits for its own publish before committing', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    clock.t += 2.1 * HOUR;
    await a.manager.tick(); // prepared by a; a stops here (crash)
    const b = replica(store, clock, publisher);
    clock.t += 60_000;
    expect((await b.manager.tick()).rotating).toBe(true); // b publishes now and waits
    clock.t += 5_000;
    expect((await b.manager.tick()).rotating).toBe(false);
    expect((await stored(store)).next).toBeUndefined();
    expect(b.trustedWhenServed.every(Boolean)).toBe(true);
  });

  it('does not commit while the configurations do not hold the new CA', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    await a.manager.tick(true);
    publisher.tamper = true; // someone overwrote the caBundle
    clock.t += 5_000;
    expect((await a.manager.tick()).rotating).toBe(true);
    publisher.tamper = false;
    const before = publisher.publishes;
    clock.t += 5_000;
    expect((await a.manager.tick()).rotating).toBe(false);
    expect(before).toBeGreaterThan(2); // republished after the tampering
    expect(a.trustedWhenServed).toEqual([true, true]);
  });

  it('rotateNow rotates a fresh certificate and returns once it is served', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    const t0 = clock.t;
    await a.manager.rotateNow();
    expect(a.served).toHaveLength(2);
    expect(clock.t - t0).toBe(5_000);
    expect(a.trustedWhenServed).toEqual([true, true]);
  });

  it('expired CAs leave the bundle; it never grows past maxBundle', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher, { maxBundle: 3 });
    await a.manager.tick();
    for (let i = 0; i < 5; i++) await a.manager.rotateNow();
    expect(splitBundle(publisher.current)).toHaveLength(3);
    expect(issuedBy(a.served.at(-1)!.certPem, splitBundle(publisher.current)[0]!)).toBe(true);
    clock.t += 3.5 * HOUR; // every CA so far expired; the current one was replaced on the way
    await a.manager.tick();
    const value = await stored(store);
    for (const ca of value.bundle) expect(validityOf(ca)!.notAfter).toBeGreaterThan(clock.t);
  });
});

describe('CertificateManager: recovery', () => {
  it('an expired certificate is replaced at once (nothing to overlap with)', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    clock.t += 4 * HOUR;
    const outcome = await a.manager.tick();
    expect(outcome.rotating).toBe(false);
    expect(a.served).toHaveLength(2);
    expect((await stored(store)).next).toBeUndefined();
    expect(splitBundle(publisher.current)).toHaveLength(1);
  });

  it('a hand-edited Secret is replaced', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const a = replica(store, clock, new FakePublisher());
    await a.manager.tick();
    store.corrupt();
    await a.manager.tick();
    expect(a.served).toHaveLength(2);
    expect((await stored(store)).current.serving).toEqual(a.served[1]);
  });

  it('a certificate for other hosts is replaced', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    await new CertificateManager({ store, hosts: hostsFrom(['10.0.0.1']), clock, publisher, policy, onServing: () => undefined }).tick();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    expect(store.writes).toHaveLength(2);
  });

  it('retries after losing a write race', async () => {
    const inner = new MemoryCertificateStore();
    let losses = 1;
    const racy: CertificateStore = {
      read: () => inner.read(),
      create: (v) => inner.create(v),
      update: async (v, version) => {
        if (losses-- > 0) {
          // Another replica writes first: the version moves on.
          const cur = (await inner.read())!;
          await inner.update(cur.value!, cur.version);
          return false;
        }
        return inner.update(v, version);
      },
    };
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(racy, clock, publisher);
    await a.manager.tick();
    await a.manager.tick(true);
    expect((await inner.read())!.value!.next).toBeDefined();
  });

  it('the bundle always trusts current and next, whatever the store holds', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const publisher = new FakePublisher();
    const a = replica(store, clock, publisher);
    await a.manager.tick();
    const rec = (await store.read())!;
    await store.update({ ...rec.value!, bundle: [] }, rec.version);
    await a.manager.tick();
    expect(publisher.current).toBe(joinBundle([rec.value!.current.caPem]));
  });
});

describe('CertificateManager: short lifetimes', () => {
  it('counts the lifetime from issuance, not from the backdated notBefore', async () => {
    const store = new MemoryCertificateStore();
    const clock = new FakeClock();
    const a = replica(store, clock, new FakePublisher(), { validityMs: 60_000, checkIntervalMs: 3600_000 });
    const outcome = await a.manager.tick();
    // 60 s lifetime, rotate with a third left: 40 s from now (whole seconds in X.509).
    expect(outcome.rotating).toBe(false);
    expect(outcome.nextCheckMs).toBeGreaterThan(38_000);
    expect(outcome.nextCheckMs).toBeLessThanOrEqual(40_000);
    clock.t += 41_000;
    expect((await a.manager.tick()).rotating).toBe(true);
  });
});
