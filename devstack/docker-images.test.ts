import { describe, expect, it } from 'vitest';
import { aptInstall, nodeVersionFits, unusedImages } from './docker-images.ts';

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

describe('unusedImages (what a product image build removes afterwards)', () => {
  const output = [
    'Step 5/25 : COPY package.json package-lock.json ./',
    ' ---> Using cache',
    ' ---> 3f2a1b9c8d7e',
    'Step 6/25 : RUN npm ci --omit=dev',
    ' ---> Running in 0123456789ab',
    'Removing intermediate container 0123456789ab',
    ' ---> 9a8b7c6d5e4f',
    'Successfully built 9a8b7c6d5e4f',
  ];

  it('keeps the images the build found in its cache or made, and no container counts as one', () => {
    const cached = `sha256:3f2a1b9c8d7e${'0'.repeat(52)}`;
    const made = `sha256:9a8b7c6d5e4f${'1'.repeat(52)}`;
    const old = `sha256:0123456789ab${'2'.repeat(52)}`;
    expect(unusedImages([cached, made, old], output)).toEqual([old]);
  });

  it('removes every leftover of a build that printed no step', () => {
    expect(unusedImages(['sha256:aa', 'sha256:bb'], [])).toEqual(['sha256:aa', 'sha256:bb']);
  });
});
