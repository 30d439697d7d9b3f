import { describe, expect, it } from 'vitest';
import { isAtLeast } from './resource-version.ts';

describe('isAtLeast', () => {
  it('compares decimal resourceVersions numerically, not as text', () => {
    expect(isAtLeast('100', '99')).toBe(true);
    expect(isAtLeast('99', '100')).toBe(false);
    expect(isAtLeast('100', '100')).toBe(true);
    expect(isAtLeast('1234567890123456789012', '999')).toBe(true);
  });
  it('accepts anything when no minimum is known', () => {
    expect(isAtLeast('5', undefined)).toBe(true);
    expect(isAtLeast(undefined, '')).toBe(true);
  });
  it('treats versions it cannot compare as not new enough', () => {
    expect(isAtLeast(undefined, '5')).toBe(false);
    expect(isAtLeast('abc', '5')).toBe(false);
    expect(isAtLeast('7', 'x1')).toBe(false);
  });
});
