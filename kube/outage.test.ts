import { describe, expect, it } from 'vitest';
import { Outage } from './outage.ts';

describe('Outage', () => {
  it('logs one line when lost and one when back, however many failures come between', () => {
    const lines: string[] = [];
    let t = 1_000;
    const o = new Outage('ModelDeployment watch', (l) => lines.push(l), () => t);
    expect(o.succeeded()).toBe(false);
    expect(o.failed('connect ECONNREFUSED 127.0.0.1:6443\nstack')).toBe(true);
    for (let i = 0; i < 100; i++) expect(o.failed('again')).toBe(false);
    expect(o.down).toBe(true);
    t += 12_300;
    expect(o.describe()).toBe('ModelDeployment watch (lost 12s ago: connect ECONNREFUSED 127.0.0.1:6443)');
    expect(o.succeeded()).toBe(true);
    expect(o.succeeded()).toBe(false);
    expect(o.describe()).toBeUndefined();
    expect(lines).toEqual(['ModelDeployment watch lost (connect ECONNREFUSED 127.0.0.1:6443); retrying with backoff', 'ModelDeployment watch back after 12.3s']);
  });
});
