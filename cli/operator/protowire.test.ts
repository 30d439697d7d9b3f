import { describe, expect, it } from 'vitest';
import { bytesField, decode, encode, mapField, messageField, varintField } from './protowire.ts';

describe('protowire', () => {
  it('reads back what it writes, nested messages and maps included', () => {
    const entry = (k: string, v: string) => encode([[1, k], [2, v]]);
    const inner = encode([[1, 'wf-1'], [2, 'run-é']]);
    const msg = decode(encode([[1, 'ns'], [2, inner], [3, entry('a', 'x')], [3, entry('b', 'y')]]));
    expect(bytesField(msg, 1)?.toString()).toBe('ns');
    expect(bytesField(messageField(msg, 2)!, 2)?.toString()).toBe('run-é');
    expect(Object.fromEntries([...mapField(msg, 3)].map(([k, v]) => [k, v.toString()]))).toEqual({ a: 'x', b: 'y' });
  });

  it('reads varints past 32 bits and skips fixed-width fields', () => {
    // field 5 varint 2^40 + 1, field 6 fixed64, field 7 fixed32, field 8 varint 3
    const big = 2 ** 40 + 1;
    const bytes: number[] = [(5 << 3) | 0];
    for (let n = big; ; ) {
      const b = n % 128;
      n = Math.floor(n / 128);
      bytes.push(n > 0 ? b | 0x80 : b);
      if (n === 0) break;
    }
    bytes.push((6 << 3) | 1, 1, 2, 3, 4, 5, 6, 7, 8, (7 << 3) | 5, 1, 2, 3, 4, (8 << 3) | 0, 3);
    const msg = decode(Buffer.from(bytes));
    expect(varintField(msg, 5)).toBe(big);
    expect(varintField(msg, 8)).toBe(3);
  });

  it('refuses a truncated message instead of reading past its end', () => {
    expect(() => decode(Buffer.from([(1 << 3) | 2, 10, 1, 2]))).toThrow(/truncated/);
  });
});
