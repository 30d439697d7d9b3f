// The tools cache's Java programs (versions.ts's MavenToolSpec): fetched from Maven Central with the
// machine's `mvn` into `<cache>/<name>-<version>/`, one jar per artifact, and run from there with `java`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { toolsCacheDir } from './resolve.ts';
import { run } from './run.ts';
import type { MavenToolSpec } from './versions.ts';

function cachedJarsDir(spec: MavenToolSpec): string {
  return join(toolsCacheDir(), `${spec.name}-${spec.version}`);
}

/**
 * The artifact's own jar, whose presence says the cache's folder is complete: a fetch copies every jar
 * into a folder of its own and only then renames that folder into place, so the cache's folder never
 * exists half filled (Maven copies in no stated order: no single jar could mark the end of a copy).
 */
function mainJar(spec: MavenToolSpec): string {
  return `${spec.artifactId}-${spec.version}.jar`;
}

/** The folder of the program's jars: where the spec's variable points (taken as given), else the cache's when complete. */
export function resolveMavenTool(spec: MavenToolSpec): string | undefined {
  const fromEnv = process.env[spec.envVar];
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`${spec.envVar}=${fromEnv} is not a folder`);
    return fromEnv;
  }
  const dir = cachedJarsDir(spec);
  return complete(spec, dir) ? dir : undefined;
}

function complete(spec: MavenToolSpec, dir: string): boolean {
  return existsSync(join(dir, mainJar(spec)));
}

/** The folder of the program's jars, or an error saying how to fetch them. */
export function mavenToolJars(spec: MavenToolSpec): string {
  const found = resolveMavenTool(spec);
  if (found) return found;
  throw new Error(`missing ${spec.name} ${spec.version} in ${cachedJarsDir(spec)} (or set ${spec.envVar}). Run \`npm run tools\` to fetch it.`);
}

/** `java`, from JAVA_HOME when it is set (as Maven finds it). */
export function javaCommand(): string {
  return process.env.JAVA_HOME ? join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

/** The arguments that run the program from its folder of jars; `jvmOptions` (`-Dname=value`) go to the JVM, `args` to the program. */
export function javaArgs(spec: MavenToolSpec, jars: string, args: string[], jvmOptions: string[] = []): string[] {
  return [...jvmOptions, '-cp', join(jars, '*'), spec.mainClass, ...args];
}

/** Fails with what to install (or which variable to set) when `mvn` or `java` cannot run. */
export function checkMaven(spec: MavenToolSpec): void {
  for (const [cmd, args] of [
    ['mvn', ['--version']],
    [javaCommand(), ['-version']],
  ] as const) {
    try {
      execFileSync(cmd, args, { stdio: 'ignore', timeout: 60_000 });
    } catch {
      throw new Error(`${cmd} cannot run: fetching ${spec.name} ${spec.version} needs Maven and Java. Install them, or set ${spec.envVar} to a folder of its jars.`);
    }
  }
}

/** A project that only depends on the program: `dependency:copy-dependencies` of it copies the program and its runtime dependencies. */
function throwawayPom(spec: MavenToolSpec): string {
  const dependency = `<groupId>${spec.groupId}</groupId><artifactId>${spec.artifactId}</artifactId><version>${spec.version}</version>`;
  return `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.invalid</groupId><artifactId>${spec.name}-fetch</artifactId><version>0</version>
  <dependencies><dependency>${dependency}</dependency></dependencies>
</project>
`;
}

/**
 * Puts a finished copy in place with one rename. Two fetches at once (two test runs) each made their own
 * copy: the first rename wins, and the other, finding the folder complete, discards its copy. A folder
 * there that is not complete (not made by a rename) is replaced.
 */
function moveIntoPlace(spec: MavenToolSpec, copy: string, dir: string): void {
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      renameSync(copy, dir);
      return;
    } catch (err) {
      // A non-empty folder is in the way: another fetch's, or an incomplete one.
      const code = err instanceof Error && 'code' in err ? err.code : undefined;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
    if (complete(spec, dir)) {
      rmSync(copy, { recursive: true, force: true });
      return;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  throw new Error(`could not move ${copy} to ${dir}: another folder keeps appearing there`);
}

/** Older than any fetch takes (seconds): a copy this old was left by a fetch that was killed. */
const ABANDONED_AFTER_MS = 60 * 60_000;

/** Removes the `<dir>.partial-*` copies that killed fetches left beside `dir`; a fetch running now keeps its own. */
export function removeAbandonedCopies(dir: string, now = Date.now()): string[] {
  const prefix = `${basename(dir)}.partial-`;
  const parent = dirname(dir);
  if (!existsSync(parent)) return [];
  const removed: string[] = [];
  for (const entry of readdirSync(parent).filter((e) => e.startsWith(prefix))) {
    const path = join(parent, entry);
    if (now - statSync(path).mtimeMs < ABANDONED_AFTER_MS) continue;
    rmSync(path, { recursive: true, force: true });
    removed.push(path);
  }
  return removed;
}

/** Fetches the jars (Maven's own repository, ~/.m2, is the user's and shared, like Go's caches) into the cache. */
export async function fetchMavenTool(spec: MavenToolSpec, work: string, logFile: string): Promise<string> {
  const dir = cachedJarsDir(spec);
  mkdirSync(work, { recursive: true });
  mkdirSync(dirname(dir), { recursive: true });
  // This fetch's own throwaway project and copy, so that a fetch running at once touches neither; the copy
  // beside the cache's folder (one filesystem), so its rename into place is atomic.
  removeAbandonedCopies(dir);
  const project = mkdtempSync(join(work, 'fetch-'));
  const copy = mkdtempSync(`${dir}.partial-`);
  try {
    writeFileSync(join(project, 'pom.xml'), throwawayPom(spec));
    const args = ['-B', '--no-transfer-progress', 'dependency:copy-dependencies', '-DincludeScope=runtime', `-DoutputDirectory=${copy}`];
    await run(`mvn copy ${spec.groupId}:${spec.artifactId}:${spec.version} and its dependencies`, 'mvn', args, { cwd: project, logFile });
    if (!complete(spec, copy)) throw new Error(`mvn copied no ${mainJar(spec)} into ${copy}`);
    moveIntoPlace(spec, copy, dir);
    return dir;
  } finally {
    rmSync(copy, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  }
}
