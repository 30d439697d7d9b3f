// The image and the compose file, checked by reading them (test/image/ builds and runs the image on a private Docker engine): the build stage
// compiles everything the runtime imports, the runtime stage holds the compiled code and production
// dependencies only and runs it as non-root; the compose services fit together; every flag the manifests
// and the compose file pass is one `kubeairunway run` accepts. production-build.test.ts runs the build
// itself, laid out as the image.

import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinProviders } from '../../providers/index.ts';
import { DEPLOY_DIR, INSTALL_FILE, kubectlAvailable } from '../../deploy/render.ts';
import { importGraph } from './import-graph.ts';
import { NODE_COMPONENT, overlay, parseManifests, rendered, type Manifest } from './manifests.ts';
import { optionNames, runOptions } from './run-flags.ts';

const ROOT = resolve(DEPLOY_DIR, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };
/** What the runtime runs, compiled: the CLI (bin/kubeairunway.js loads it) and the workflow code the build bundles. */
const runtime = importGraph(ROOT, ['cli/main.ts', 'workflows/index.ts']);
/** The build script and what it imports, run in the build stage. */
const build = importGraph(ROOT, ['scripts/build.ts']);

/** The Dockerfile's stages: each FROM line's name (the last one, the image, is unnamed) and its instructions. */
function stages(dockerfile: string): { name: string; lines: string[] }[] {
  return dockerfile
    .split(/^(?=FROM )/m)
    .slice(1)
    .map((text) => ({ name: text.match(/^FROM \S+(?: AS (\S+))?/)?.[1] ?? '', lines: text.replace(/\\\n/g, ' ').split('\n').filter((l) => l && !l.startsWith('#')) }));
}

describe('Dockerfile and .dockerignore', () => {
  const dockerfile = read('Dockerfile');
  const [dependencies, builder, image] = stages(dockerfile);
  const ignore = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const allowed = ignore.filter((l) => l.startsWith('!')).map((l) => l.slice(1));
  /** Whether .dockerignore lets a repository file into the build context (itself or its top folder listed). */
  const inContext = (file: string) => allowed.some((a) => file === a || file.startsWith(`${a}/`));

  it('builds in three stages on node:20-bookworm-slim: production dependencies, the build, the image', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    // The npm stages may run on a base of their own (BUILD_IMAGE, with npm); the same one by default.
    expect(dockerfile).toMatch(/^ARG BUILD_IMAGE=\$\{NODE_IMAGE\}$/m);
    expect(dockerfile.match(/^FROM \$\{BUILD_IMAGE\} AS /gm)).toHaveLength(2);
    expect(dockerfile.match(/^FROM \$\{NODE_IMAGE\}$/gm)).toHaveLength(1);
    expect([dependencies?.name, builder?.name, image?.name]).toEqual(['dependencies', 'build', '']);
    expect(dependencies!.lines).toContainEqual(expect.stringMatching(/^RUN npm ci --omit=dev --ignore-scripts/));
    // The build installs the dev dependencies too (tsc, tsx, the bundler's types) and runs `npm run build`.
    expect(builder!.lines).toContainEqual(expect.stringMatching(/^RUN npm ci --ignore-scripts/));
    expect(builder!.lines).toContain('COPY . .');
    expect(builder!.lines).toContain('RUN npm run build');
  });

  it('the image holds production dependencies, package.json, bin/ and dist/, and no sources', () => {
    const copies = image!.lines.filter((l) => l.startsWith('COPY '));
    expect(copies.sort()).toEqual(['COPY --from=build /app/dist ./dist', 'COPY --from=dependencies /app/node_modules ./node_modules', 'COPY bin ./bin', 'COPY package.json ./'].sort());
    expect(image!.lines.some((l) => l.startsWith('RUN '))).toBe(false);
  });

  it('runs bin/kubeairunway.js as a numeric non-root user (Kubernetes can verify runAsNonRoot)', () => {
    const user = dockerfile.match(/^USER (\d+):(\d+)$/m);
    expect(user && Number(user[1])).toBeGreaterThan(0);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "\/app\/bin\/kubeairunway\.js"\]$/m);
  });

  it('the build context holds every source the runtime and the build import, the configs and bin/', () => {
    expect(ignore[0]).toBe('*');
    expect([...runtime.files, ...build.files].filter((f) => !inContext(f))).toEqual([]);
    for (const file of ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'bin/kubeairunway.js']) expect(inContext(file), file).toBe(true);
    // The exclusions after the allow list (tests, golden files, test helpers) hit no runtime file.
    const excluded = ignore.filter((l) => !l.startsWith('!') && l !== '*').map((l) => l.replace(/^\*\*\//, ''));
    const hit = [...runtime.files, ...build.files].filter((f) => excluded.some((x) => (x.startsWith('*.') ? f.endsWith(x.slice(1)) : f.split('/').includes(x))));
    expect(hit).toEqual([]);
  });

  it('tsconfig.build.json compiles every runtime source file, and no test', () => {
    const { config } = ts.readConfigFile(join(ROOT, 'tsconfig.build.json'), ts.sys.readFile);
    const parsed = ts.parseJsonConfigFileContent(config, ts.sys, ROOT);
    expect(parsed.errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n'))).toEqual([]);
    const compiled = new Set(parsed.fileNames.map((f) => relative(ROOT, f)));
    expect([...runtime.files].filter((f) => !compiled.has(f))).toEqual([]);
    expect([...compiled].filter((f) => f.endsWith('.test.ts') || f.split('/').includes('testing'))).toEqual([]);
    expect(parsed.options.rewriteRelativeImportExtensions).toBe(true);
    // bin/kubeairunway.js loads the compiled CLI from where this config writes it.
    expect(relative(ROOT, parsed.options.outDir!)).toBe('dist');
    expect(read('bin/kubeairunway.js')).toContain("'../dist/cli/main.js'");
  });

  it('every package the runtime imports is a production dependency, and tsx is not one', () => {
    expect([...runtime.packages].filter((p) => !(p in pkg.dependencies))).toEqual([]);
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.devDependencies.tsx).toBeDefined();
    expect([...build.packages].filter((p) => !(p in pkg.dependencies) && !(p in pkg.devDependencies))).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  interface Service {
    image?: string;
    build?: unknown;
    command?: string[];
    entrypoint?: string[];
    depends_on?: Record<string, { condition: string }>;
    volumes?: string[];
    ports?: string[];
    environment?: Record<string, string | number>;
  }
  const compose = parse(read('docker-compose.yml')) as { services: Record<string, Service>; volumes?: Record<string, unknown> };
  const services = compose.services;

  it('has PostgreSQL, the Temporal server with its schema setup, the Temporal UI and the controller', () => {
    expect(Object.keys(services).sort()).toEqual(['kubeairunway', 'postgresql', 'temporal', 'temporal-namespace', 'temporal-schema', 'temporal-ui']);
    expect(services.temporal!.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgresql' });
    expect(services['temporal-ui']!.environment).toMatchObject({ TEMPORAL_ADDRESS: 'temporal:7233' });
  });

  it('starts in order: every dependency exists, one-shot jobs are waited for until they complete', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(s.depends_on ?? {})) {
        expect(services[dep], `${name} depends on ${dep}`).toBeDefined();
        expect(['service_healthy', 'service_completed_successfully', 'service_started']).toContain(condition);
      }
    }
    expect(services.temporal!.depends_on).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(services.kubeairunway!.depends_on).toEqual({ 'temporal-namespace': { condition: 'service_completed_successfully' } });
  });

  it('mounts files that exist, and runs scripts that exist', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const v of s.volumes ?? []) {
        const source = v.split(':')[0]!;
        if (source.startsWith('./')) expect(existsSync(join(ROOT, source)), `${name}: ${source}`).toBe(true);
        else if (!source.startsWith('$')) expect(compose.volumes, `${name}: named volume ${source}`).toHaveProperty(source);
      }
      const script = s.entrypoint?.find((a) => a.startsWith('/scripts/'));
      if (script) {
        const local = join(ROOT, 'deploy/compose', script.slice('/scripts/'.length));
        expect(() => accessSync(local, constants.R_OK | constants.X_OK), `${name}: ${script}`).not.toThrow();
      }
    }
  });

  it('builds the controller from this Dockerfile, tagged with the package version', () => {
    expect(services.kubeairunway!.build).toBe('.');
    // KUBEAIRUNWAY_IMAGE names a locally built one instead (compose without a registry).
    expect(services.kubeairunway!.image).toBe(`\${KUBEAIRUNWAY_IMAGE:-ghcr.io/kubeairunway/kubeairunway:v${pkg.version}}`);
    expect(services.kubeairunway!.command?.[0]).toBe('run');
    expect(services.kubeairunway!.command).toContain('--temporal-address=temporal:7233');
  });
});

describe('flags passed to `kubeairunway run`', () => {
  let accepted: Set<string> | undefined;
  beforeAll(async () => {
    accepted = await runOptions();
  });

  it('every option in the manifests and the compose file is one the run command accepts', (ctx) => {
    if (!accepted) return ctx.skip();
    const deployments: Manifest[] = [
      ...parseManifests(readFileSync(INSTALL_FILE, 'utf8')),
      ...(kubectlAvailable() ? builtinProviders.flatMap((p) => rendered(`providers/${p.name}`)) : []),
      // The node worker's DaemonSet (`run --node --node-name ... --containerd-socket ...`).
      ...(kubectlAvailable() ? overlay(['core'], [NODE_COMPONENT]).filter((m) => m.kind === 'DaemonSet') : []),
    ].filter((m) => m.kind === 'Deployment' || m.kind === 'DaemonSet');
    const argLists: [string, string[]][] = deployments.map((d) => [
      d.metadata.name,
      (d.spec as { template: { spec: { containers: { args: string[] }[] } } }).template.spec.containers[0]!.args,
    ]);
    argLists.push(['compose', (parse(read('docker-compose.yml')) as { services: { kubeairunway: { command: string[] } } }).services.kubeairunway.command]);
    for (const [where, args] of argLists) {
      expect(args[0], where).toBe('run');
      expect(optionNames(args).filter((o) => !accepted!.has(o)), where).toEqual([]);
    }
  });
});
