// The image, proven (issue 28): `docker build` of the project's Dockerfile on a private Docker engine
// (Debian's docker.io, devstack/docker.ts), on base images made from Debian's packages
// (devstack/docker-images.ts: no registry serves base images here), then the built image run as users
// run it — `kubeairunway run` on the host network with the stack's kubeconfig mounted — reconciling a
// ModelDeployment to Running on the shared local stack. Also what the image must not hold (no
// TypeScript compiler, no tsx), who it runs as (uid 1000), and a clean stop on SIGTERM. A first run
// builds the bases (about 3 minutes) and the image (about 5); later runs find the bases by tag and reuse
// the dependency layers. The numbers go to the output as `[image]` lines.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageSize, serverVersion, startDocker, dockerUnavailable, type DockerEngine } from '../../devstack/docker.ts';
import { baseImageUnavailable, buildProjectImage, NODE_BASE_IMAGE } from '../../devstack/docker-images.ts';
import { freePort } from '../../devstack/ports.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { containerKubeconfig } from '../support/container-kubeconfig.ts';
import { createDeployment, example, phaseIs, waitForDeployment } from '../support/deployments.ts';
import { eventually, stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';

const unavailable = dockerUnavailable() ?? baseImageUnavailable();
const ROOT = resolve(import.meta.dirname, '..', '..');
const say = (line: string) => process.stdout.write(`[image] ${line}\n`);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

describe.skipIf(unavailable !== undefined)(`the image on a private Docker engine${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let engine: DockerEngine;
  let image: string;
  let kube: TestKube;
  let dir: string;
  const simulators: Simulator[] = [];
  const containers: string[] = [];

  beforeAll(async () => {
    const t0 = Date.now();
    engine = await startDocker({ log: say });
    say(`dockerd ${await serverVersion(engine)}`);
    const built = await buildProjectImage(engine, ROOT, undefined, say);
    image = built.tag;
    say(`image ${image}: ${mib(await imageSize(engine, image))} (base ${NODE_BASE_IMAGE}: ${mib(await imageSize(engine, NODE_BASE_IMAGE))}); engine, bases and build took ${((Date.now() - t0) / 1000).toFixed(0)}s`);
    kube = await testKube('img');
    dir = mkdtempSync(join(tmpdir(), 'kubeairunway-image-'));
    // The simulated KAITO/Dynamo/KubeRay operators and kubelet for the test's namespace (no such operators
    // or kubelet run here); the controller under test is the one in the container.
    for (const script of UPSTREAM_SCRIPTS) simulators.push(await startSimulator(kube.kc, script, { readyAfterMs: 1_000 }));
    simulators.push(await startPodReadinessSimulator(kube.kc, { readyAfterMs: 1_000, namespaces: [kube.namespace] }));
  }, 45 * 60_000);

  afterAll(async () => {
    for (const c of containers) await engine?.run(['rm', '-f', c]).catch(() => undefined);
    await Promise.all(simulators.map((s) => s.stop()));
    await kube?.cleanup();
    await engine?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('holds compiled JavaScript and production dependencies only (no TypeScript compiler, no tsx) and runs as uid 1000', async () => {
    expect((await engine.run(['image', 'inspect', '--format', '{{.Config.User}}', image])).trim()).toBe('1000:1000');
    const probe = [
      "const fs = require('node:fs');",
      "const bin = fs.readdirSync('/app/node_modules/.bin');",
      "const walk = (d) => fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(d + '/' + e.name) : [d + '/' + e.name]));",
      'console.log(JSON.stringify({',
      '  uid: process.getuid(), gid: process.getgid(),',
      "  typescript: fs.existsSync('/app/node_modules/typescript'), tsx: fs.existsSync('/app/node_modules/tsx'),",
      "  compilers: bin.filter((b) => ['tsc', 'tsx', 'tsserver'].includes(b)),",
      "  sources: walk('/app/dist').filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).length,",
      "  writable: (() => { try { fs.writeFileSync('/app/x', ''); return true; } catch { return false; } })(),",
      '}));',
    ].join('\n');
    const out = await engine.run(['run', '--rm', '--network=none', '--entrypoint=node', image, '-e', probe]);
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({ uid: 1000, gid: 1000, typescript: false, tsx: false, compilers: [], sources: 0, writable: false });
    // The entry point runs: --help lists the commands.
    expect(await engine.run(['run', '--rm', '--network=none', image])).toMatch(/Usage: kubeairunway/);
  });

  it('runs `kubeairunway run` (host network, the kubeconfig mounted): a ModelDeployment reaches Running; SIGTERM stops it cleanly with exit code 0', async () => {
    const name = uniqueName('kar-image');
    containers.push(name);
    const metricsPort = await freePort();
    const kubeconfig = containerKubeconfig(dir);
    const t0 = Date.now();
    await engine.run([
      'run', '-d', '--name', name, '--network=host',
      '-v', `${kubeconfig}:/kube/config:ro`,
      image,
      'run', '--kubeconfig=/kube/config',
      `--temporal-address=${stackInfo().temporalAddress}`, `--temporal-namespace=${stackInfo().temporalNamespace}`,
      `--namespaces=${kube.namespace}`, `--task-queue-prefix=${uniqueName('kar')}`,
      '--metrics-address=127.0.0.1', `--metrics-port=${metricsPort}`,
    ]);
    const logs = () => engine.run(['logs', name]);
    await eventually('the controller in the container to log "controller running"', async () => (await logs()).includes('controller running'), 120_000, 200);
    const startSeconds = (Date.now() - t0) / 1000;
    say(`container start to "controller running": ${startSeconds.toFixed(1)}s`);
    // Its endpoints are served on the host's network.
    const health = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
    expect(health.status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toMatch(/^# HELP /m);

    const md = example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = uniqueName('img-md');
    });
    await createDeployment(md);
    const running = await waitForDeployment(kube.namespace, md.metadata.name!, 'Running (reconciled by the containerised controller)', phaseIs('Running'), 120_000);
    expect(running.status?.provider?.name).toBe('dynamo');
    expect(running.metadata.finalizers).toContain('kubeairunway.ai/finalizer');

    // docker stop: SIGTERM to node (PID 1), SIGKILL only after 60 s.
    const s0 = Date.now();
    await engine.run(['stop', '--time=60', name], { timeoutMs: 90_000 });
    const stopSeconds = (Date.now() - s0) / 1000;
    const state = JSON.parse(await engine.run(['inspect', '--format', '{{json .State}}', name])) as { ExitCode: number; OOMKilled: boolean };
    say(`SIGTERM to exit: ${stopSeconds.toFixed(1)}s, exit code ${state.ExitCode}`);
    expect(state.ExitCode).toBe(0);
    expect(stopSeconds).toBeLessThan(30);
    expect(await logs()).toMatch(/"msg":"stopped"/);
  });
});
