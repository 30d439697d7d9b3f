import { describe, expect, it } from 'vitest';
import { aptInstall, nodeVersionFits } from './docker-images.ts';

describe('nodeVersionFits (the base image against package.json engines, >= 20.19)', () => {
  it('takes 20.19 and later, with or without the v', () => {
    for (const v of ['v20.19.2', '20.19.0', 'v20.20.1', 'v22.1.0', 'v100.0.0\n']) expect(nodeVersionFits(v), v).toBe(true);
  });
  it('refuses older releases and what is not a version', () => {
    for (const v of ['v20.18.9', 'v18.19.0', 'v19.99.0', '', 'node', 'vx.y']) expect(nodeVersionFits(v), v).toBe(false);
  });
});

describe('aptInstall', () => {
  it('is the line the derived images were built with (their tags are their recipes\' digests: a new text rebuilds them)', () => {
    expect(aptInstall('containerd', 'runc')).toBe(
      'RUN apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install containerd runc && apt-get clean && rm -rf /var/lib/apt/lists/*',
    );
  });
});
