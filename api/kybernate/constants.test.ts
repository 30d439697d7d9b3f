import { describe, expect, it } from 'vitest';
import { nodeTaskQueue } from './constants.ts';
import { parseDuration } from './duration.ts';

describe('nodeTaskQueue', () => {
  it("is the seed's kybernate-node-<nodeName> behind the installation's prefix", () => {
    expect(nodeTaskQueue('kubeairunway', 'gpu-node-2')).toBe('kubeairunway-kybernate-node-gpu-node-2');
  });
});

describe('parseDuration', () => {
  it.each([
    ['5m', 300_000],
    ['30s', 30_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1m1ms', 60_001],
    ['0m10s', 10_000],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each(['', '0s', '0m0s', '5', '1.5h', '5d', ' 5m', '5m ', '-5m', 'm'])('%j is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });
});
