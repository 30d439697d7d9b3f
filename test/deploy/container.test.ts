// The image and the compose file, checked by reading them (no Docker engine here): the image holds
// everything the runtime imports and runs it as non-root; the compose services fit together; every
// flag the manifests and the compose file pass is one `kubeairunway run` accepts.

import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { builtinProviders } from '../../providers/index.ts';
import { DEPLOY_DIR, INSTALL_FILE, kubectlAvailable } from '../../deploy/render.ts';
import { importGraph } from './import-graph.ts';
import { parseManifests, rendered, type Manifest } from './manifests.ts';
import { optionNames, runOptions } from './run-flags.ts';

const ROOT = resolve(DEPLOY_DIR, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; dependencies: Record<string, string> };
/** The entry point, and the workflow code the Temporal worker bundles at start by path. */
const runtime = importGraph(ROOT, ['bin/kubeairunway.js', 'workflows/index.ts']);

describe('Dockerfile and .dockerignore', () => {
  const dockerfile = read('Dockerfile');
  const ignore = read('.dockerignore')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

  it('is a two-stage build on node:20-bookworm-slim with production dependencies only', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
    expect(dockerfile.match(/^FROM \$\{NODE_IMAGE\}/gm)).toHaveLength(2);
    expect(dockerfile).toMatch(/npm ci --omit=dev --ignore-scripts/);
    expect(dockerfile).toMatch(/^COPY --from=dependencies \/app\/node_modules \.\/node_modules$/m);
  });

  it('runs bin/kubeairunway.js as a numeric non-root user (Kubernetes can verify runAsNonRoot)', () => {
    const user = dockerfile.match(/^USER (\d+):(\d+)$/m);
    expect(user && Number(user[1])).toBeGreaterThan(0);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "\/app\/bin\/kubeairunway\.js"\]$/m);
  });

  it('lets through every folder the runtime imports, and nothing the runtime imports is left out', () => {
    expect(ignore[0]).toBe('*');
    const allowed = new Set(ignore.filter((l) => l.startsWith('!')).map((l) => l.slice(1)));
    const folders = new Set([...runtime.files].map((f) => f.split('/')[0]!));
    expect([...folders].filter((f) => !allowed.has(f))).toEqual([]);
    expect(allowed.has('package.json') && allowed.has('package-lock.json')).toBe(true);
    // The exclusions after the allow list (tests, golden files, test helpers) hit no runtime file.
    const excluded = ignore.filter((l) => !l.startsWith('!') && l !== '*').map((l) => l.replace(/^\*\*\//, ''));
    const hit = [...runtime.files].filter((f) => excluded.some((x) => (x.startsWith('*.') ? f.endsWith(x.slice(1)) : f.split('/').includes(x))));
    expect(hit).toEqual([]);
  });

  it('every package the runtime imports is a production dependency (npm ci --omit=dev installs it)', () => {
    expect([...runtime.packages].filter((p) => !(p in pkg.dependencies))).toEqual([]);
    expect(pkg.dependencies.tsx).toBeDefined();
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
    expect(services.kubeairunway!.image).toBe(`ghcr.io/kubeairunway/kubeairunway:v${pkg.version}`);
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
    ].filter((m) => m.kind === 'Deployment');
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
