import { describe, expect, it } from 'vitest';
import { isShutdownNoise } from './shutdown-noise.ts';

describe('isShutdownNoise', () => {
  it('knows the errors of calls cut off by closing the Temporal connection', () => {
    expect(isShutdownNoise(new Error('Channel has been shut down'))).toBe(true);
    expect(isShutdownNoise(new Error('Connection closed'))).toBe(true);
    expect(isShutdownNoise('Client has been closed')).toBe(true);
    expect(isShutdownNoise(new Error('Client already closed'))).toBe(true);
  });

  it('does not hide other errors', () => {
    expect(isShutdownNoise(new TypeError("Cannot read properties of undefined (reading 'metadata')"))).toBe(false);
    expect(isShutdownNoise(new Error('connect ECONNREFUSED 127.0.0.1:6443'))).toBe(false);
  });
});
