// What the private Docker engine (devstack/docker.ts) drops when it starts, so its data root in the tool
// cache stops growing (it reached about 3.5 GB): whatever no tag reaches, and the images of recipes
// replaced since. Kept: every other tagged image — the Debian-made bases, the images the tests tag and
// find again (`kubeairunway-local/kubeairunway:test`, the compose and cluster images) — so warm runs stay
// warm. Only at a start of the engine by this process: nobody else builds on it then.
import { messageOf } from '../contract/failure-types.ts';

/** An image as `docker image inspect` describes it: its tags, its creation time (RFC 3339) and its size in bytes. */
export interface EngineImage {
  tags: readonly string[];
  created: string;
  size: number;
}

export interface PrunePolicy {
  /**
   * Images kept per recipe name (ensureDerivedImage tags `<name>-<recipe digest>`): the newest few, so
   * worktrees on either side of a recipe change share one engine without rebuilding in turn.
   */
  recipesKeptPerImage: number;
  /** BuildKit's cache beyond this many bytes is dropped (the classic builder, which our builds use, keeps none). */
  builderCacheKeptBytes: number;
  /**
   * Images no tag reaches are pruned only once they add up to more than this (each counted whole, shared
   * layers and all): the classic builder's cache of a multi-stage build is such images (the dependency
   * and build stages), and pruning them at every start made each product image build take 90 s instead of 30.
   */
  untaggedKeptBytes: number;
}

export const PRUNE_POLICY: PrunePolicy = { recipesKeptPerImage: 2, builderCacheKeptBytes: 1024 ** 3, untaggedKeptBytes: 6 * 1024 ** 3 };

/** `kubeairunway-local/<name>-<10 hex digits>`, with docker's `:latest` when the name had no tag: the name. */
const RECIPE_TAG = /^(kubeairunway-local\/.+)-[0-9a-f]{10}(?::latest)?$/;

/** The recipe tags of images older than the newest `recipesKeptPerImage` of their recipe name. */
export function staleRecipeTags(images: readonly EngineImage[], policy: PrunePolicy = PRUNE_POLICY): string[] {
  const byName = new Map<string, { tag: string; created: number }[]>();
  for (const image of images) {
    for (const tag of image.tags) {
      const name = RECIPE_TAG.exec(tag)?.[1];
      if (name) byName.set(name, [...(byName.get(name) ?? []), { tag, created: Date.parse(image.created) }]);
    }
  }
  return [...byName.values()].flatMap((versions) =>
    versions
      .sort((a, b) => b.created - a.created)
      .slice(policy.recipesKeptPerImage)
      .map((v) => v.tag),
  );
}

/**
 * The docker commands of one prune, in order: stopped containers first (they hold their images), then
 * the stale recipe tags (untagged only: an image another tag or a child still uses stays), then every
 * image no tag reaches (dangling, the old tags' layers among them) once they exceed their bound, then
 * BuildKit's cache beyond its bound.
 * Containers and images are pruned only when made before `before` (the engine's start): a process that
 * joined the engine meanwhile may be building, and its build's newest step is an untagged image too.
 */
export function pruneCommands(images: readonly EngineImage[], before: Date, policy: PrunePolicy = PRUNE_POLICY): string[][] {
  const until = `until=${Math.floor(before.getTime() / 1000)}`;
  const untagged = images.filter((i) => i.tags.length === 0 && Date.parse(i.created) < before.getTime()).reduce((sum, i) => sum + i.size, 0);
  return [
    ['container', 'prune', '--force', '--filter', until],
    ...staleRecipeTags(images, policy).map((tag) => ['rmi', tag]),
    ...(untagged > policy.untaggedKeptBytes ? [['image', 'prune', '--force', '--filter', until]] : []),
    ['builder', 'prune', '--force', `--keep-storage=${policy.builderCacheKeptBytes}`],
  ];
}

/** Reads `docker image inspect --format '{{json .RepoTags}}\t{{.Created}}\t{{.Size}}'` output, one image a line. */
export function parseImages(output: string): EngineImage[] {
  return output
    .split('\n')
    .filter((line) => line.includes('\t'))
    .map((line) => {
      const [tags = 'null', created = '', size = '0'] = line.split('\t');
      // An image without tags says `[]` (or `null` on older engines).
      const parsed: unknown = JSON.parse(tags);
      return { tags: Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [], created: created.trim(), size: Number(size.trim()) || 0 };
    });
}

type RunDocker = (args: string[], opts?: { timeoutMs?: number }) => Promise<string>;

const STEP_TIMEOUT_MS = 60_000;

/**
 * Prunes the engine `run` talks to, of what was made before `before`; each command bounded, a failure
 * said and passed over (a start never fails on it).
 */
export async function pruneEngine(run: RunDocker, before: Date, log: (line: string) => void = () => undefined): Promise<void> {
  const t0 = Date.now();
  let images: EngineImage[] = [];
  try {
    const ids = [...new Set((await run(['image', 'ls', '--quiet', '--no-trunc'], { timeoutMs: STEP_TIMEOUT_MS })).split('\n').filter(Boolean))];
    if (ids.length > 0) images = parseImages(await run(['image', 'inspect', '--format', '{{json .RepoTags}}\t{{.Created}}\t{{.Size}}', ...ids], { timeoutMs: STEP_TIMEOUT_MS }));
  } catch (err) {
    log(`docker: listing images to prune failed (${firstLine(err)}); pruning no image`);
  }
  const commands = pruneCommands(images, before);
  const untagged = commands.filter(([verb]) => verb === 'rmi').length;
  const reclaimed: string[] = untagged > 0 ? [`${untagged} stale recipe tag(s)`] : [];
  for (const args of commands) {
    try {
      const output = await run(args, { timeoutMs: STEP_TIMEOUT_MS });
      const total = /Total reclaimed space:\s*(\S+)/i.exec(output)?.[1];
      if (total && !/^0B?$/.test(total)) reclaimed.push(`${args.slice(0, 2).join(' ')} ${total}`);
    } catch (err) {
      log(`docker: ${args.slice(0, 2).join(' ')} failed (${firstLine(err)}); going on`);
    }
  }
  log(`docker: pruned in ${((Date.now() - t0) / 1000).toFixed(1)}s${reclaimed.length ? ` (${reclaimed.join(', ')})` : ' (nothing to reclaim)'}`);
}

function firstLine(err: unknown): string {
  return messageOf(err).split('\n')[0] ?? '';
}
