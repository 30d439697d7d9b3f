import { describe, expect, it } from 'vitest';
import { containerIdFromStatus } from './container-id.ts';

describe('containerIdFromStatus', () => {
  it('takes the id from kubelet\'s containerd://<id>', () => {
    expect(containerIdFromStatus('containerd://0123abcd')).toBe('0123abcd');
  });

  it('refuses other runtimes and malformed ids', () => {
    expect(() => containerIdFromStatus('cri-o://0123abcd')).toThrow(/runs on cri-o, not containerd/);
    expect(() => containerIdFromStatus('0123abcd')).toThrow(/not a container id/);
    expect(() => containerIdFromStatus('containerd://')).toThrow(/not a container id/);
    expect(() => containerIdFromStatus('containerd://a/../b')).toThrow(/not a container id/);
  });
});
