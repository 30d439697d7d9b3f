import { describe, expect, it } from 'vitest';
import { parseImages, pruneCommands, pruneEngine, staleRecipeTags, type EngineImage } from './docker-prune.ts';

/** When the engine started: nothing made after it is pruned (a joined process may be building). */
const STARTED = new Date('2026-11-29T09:30:00.250Z');
const GIB = 1024 ** 3;
const image = (created: string, ...tags: string[]): EngineImage => ({ tags, created, size: GIB });
const POLICY = { recipesKeptPerImage: 2, builderCacheKeptBytes: GIB, untaggedKeptBytes: 6 * GIB };

// What a data root holds after a few recipe changes: bases, the tests' own tags, and three generations of two recipes.
const ENGINE: EngineImage[] = [
  image('2026-11-01T10:00:00.123456789Z', 'kubeairunway-local/node:20-trixie'),
  image('2026-11-02T10:00:00Z', 'kubeairunway-local/kubeairunway:test'),
  image('2026-11-02T11:00:00Z', 'ghcr.io/kubeairunway/kubeairunway:v0.1.0'),
  image('2026-11-03T10:00:00Z', 'kubeairunway-local/node-build:20-trixie-0123456789'),
  image('2026-11-05T10:00:00Z', 'kubeairunway-local/node-build:20-trixie-abcdef0123'),
  image('2026-11-04T10:00:00Z', 'kubeairunway-local/node-build:20-trixie-9876543210'),
  image('2026-11-01T10:00:00Z', 'kubeairunway-local/local-path-provisioner-1111111111:latest'),
  image('2026-11-06T10:00:00Z', 'kubeairunway-local/local-path-provisioner-2222222222:latest'),
  image('2026-11-07T10:00:00Z', 'kubeairunway-local/local-path-provisioner-3333333333:latest'),
  // The newest llama-server recipe also carries the plain tag the cluster uses: untagging its recipe tag would leave it reachable.
  image('2026-11-08T10:00:00Z', 'kubeairunway-local/llama-server:forky-aaaaaaaaaa', 'kubeairunway-local/llama-server:forky'),
  image('2026-11-09T10:00:00Z'),
];
/** Seven untagged stage images of a gigabyte each, and one made after the start (a build of a joined process). */
const MANY_UNTAGGED: EngineImage[] = [...ENGINE, ...Array.from({ length: 6 }, (_, i) => image(`2026-11-1${i}T10:00:00Z`)), image('2026-11-29T09:31:00Z')];

describe('staleRecipeTags', () => {
  it('keeps the newest two images of each recipe name and every image not tagged by a recipe digest', () => {
    expect(staleRecipeTags(ENGINE).sort()).toEqual(['kubeairunway-local/local-path-provisioner-1111111111:latest', 'kubeairunway-local/node-build:20-trixie-0123456789']);
  });

  it('follows the bound it is given', () => {
    expect(staleRecipeTags(ENGINE, { ...POLICY, recipesKeptPerImage: 1 }).sort()).toEqual([
      'kubeairunway-local/local-path-provisioner-1111111111:latest',
      'kubeairunway-local/local-path-provisioner-2222222222:latest',
      'kubeairunway-local/node-build:20-trixie-0123456789',
      'kubeairunway-local/node-build:20-trixie-9876543210',
    ]);
  });

  it("leaves alone tags that only look like a digest outside the project's names", () => {
    expect(staleRecipeTags([image('2026-01-01T00:00:00Z', 'postgres:16-abcdef0123'), image('2026-01-02T00:00:00Z', 'postgres:16-0123456789'), image('2026-01-03T00:00:00Z', 'postgres:16-9999999999')])).toEqual([]);
  });
});

describe('pruneCommands', () => {
  it('stopped containers, then the stale tags, then what no tag reaches (all made before the start) once it exceeds its bound, then the build cache beyond its bound', () => {
    expect(pruneCommands(MANY_UNTAGGED, STARTED, POLICY)).toEqual([
      ['container', 'prune', '--force', '--filter', 'until=1795944600'],
      ['rmi', 'kubeairunway-local/node-build:20-trixie-0123456789'],
      ['rmi', 'kubeairunway-local/local-path-provisioner-1111111111:latest'],
      ['image', 'prune', '--force', '--filter', 'until=1795944600'],
      ['builder', 'prune', '--force', '--keep-storage=1073741824'],
    ]);
  });

  it('keeps untagged images up to their bound (they are the build cache of the multi-stage product image); one made after the start does not count', () => {
    const withinBound = MANY_UNTAGGED.slice(0, -2);
    expect(pruneCommands(withinBound, STARTED, POLICY).map((c) => c.slice(0, 2))).not.toContainEqual(['image', 'prune']);
    expect(pruneCommands([...withinBound, image('2026-11-29T09:31:00Z')], STARTED, POLICY).map((c) => c.slice(0, 2))).not.toContainEqual(['image', 'prune']);
  });

  it('on an empty engine prunes only stopped containers and the build cache', () => {
    expect(pruneCommands([], STARTED).map((c) => c.slice(0, 2))).toEqual([
      ['container', 'prune'],
      ['builder', 'prune'],
    ]);
  });
});

describe('parseImages', () => {
  it("reads docker's inspect lines, an untagged image's `[]` or `null` as no tags", () => {
    const output = ['["kubeairunway-local/node:20-trixie","kubeairunway-local/node:latest"]\t2026-11-01T10:00:00.5Z\t215000000', '[]\t2026-11-02T10:00:00Z\t12', 'null\t2026-11-03T10:00:00Z\t0', ''].join('\n');
    expect(parseImages(output)).toEqual([
      { tags: ['kubeairunway-local/node:20-trixie', 'kubeairunway-local/node:latest'], created: '2026-11-01T10:00:00.5Z', size: 215000000 },
      { tags: [], created: '2026-11-02T10:00:00Z', size: 12 },
      { tags: [], created: '2026-11-03T10:00:00Z', size: 0 },
    ]);
  });
});

describe('pruneEngine', () => {
  it('runs the plan against the engine, says what it reclaimed, and goes on past a failed step', async () => {
    const ran: string[][] = [];
    const lines: string[] = [];
    const run = async (args: string[]) => {
      ran.push(args);
      if (args[0] === 'image' && args[1] === 'ls') return 'sha256:a\nsha256:b\nsha256:a\n';
      if (args[0] === 'image' && args[1] === 'inspect') return '["kubeairunway-local/x:1-0000000000"]\t2026-01-01T00:00:00Z\t1\n["kubeairunway-local/x:1-1111111111"]\t2026-01-02T00:00:00Z\t1\n["kubeairunway-local/x:1-2222222222"]\t2026-01-03T00:00:00Z\t1\n[]\t2026-01-04T00:00:00Z\t7000000000\n';
      if (args[0] === 'container') throw new Error('Error response from daemon: a prune operation is already running\nmore');
      if (args[0] === 'image' && args[1] === 'prune') return 'Deleted Images:\n…\nTotal reclaimed space: 812.4MB\n';
      return 'Total reclaimed space: 0B\n';
    };
    await pruneEngine(run, STARTED, (l) => lines.push(l));
    expect(ran[1]).toEqual(['image', 'inspect', '--format', '{{json .RepoTags}}\t{{.Created}}\t{{.Size}}', 'sha256:a', 'sha256:b']);
    expect(ran.slice(2).map((c) => c.slice(0, 2))).toEqual([
      ['container', 'prune'],
      ['rmi', 'kubeairunway-local/x:1-0000000000'],
      ['image', 'prune'],
      ['builder', 'prune'],
    ]);
    expect(lines).toEqual([
      'docker: container prune failed (Error response from daemon: a prune operation is already running); going on',
      expect.stringMatching(/^docker: pruned in \d+\.\ds \(1 stale recipe tag\(s\), image prune 812\.4MB\)$/),
    ]);
  });
});
