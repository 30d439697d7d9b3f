// Compose, proven (issue 28): `docker compose up` of the project's docker-compose.yml on the private
// Docker engine, each service on a locally built image (no registry serves any here): PostgreSQL from
// Debian's package, the Temporal server and its SQL schema tool from the Go module proxy, the
// controller from the project's Dockerfile (devstack/compose-images.ts, devstack/docker-images.ts).
// The compose file runs as written, but for one override the local stack needs: its API server listens
// on the host's loopback, so the controller runs on the host's network (as the image test runs it) and
// dials Temporal at its published port. A ModelDeployment then reaches Running through the compose-run
// controller, on a PostgreSQL-backed Temporal, and its workflow history survives restarting the
// Temporal service. The Temporal UI service is not started: no image of it is built here (docs/containers.md).
// A first run builds docker compose v2, the Temporal server and its tool (minutes each, with progress
// lines); later runs find them in the tool cache.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_DEPLOYMENT_KIND } from '../../api/constants.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import { ensureComposeImages, ensureComposePlugin } from '../../devstack/compose-images.ts';
import { baseImageUnavailable, buildProjectImage } from '../../devstack/docker-images.ts';
import { dockerUnavailable, startDocker, type DockerEngine } from '../../devstack/docker.ts';
import { freePort } from '../../devstack/ports.ts';
import { startPodReadinessSimulator } from '../../devstack/simulators/pod-readiness.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { startSimulator, type Simulator } from '../../devstack/simulators/simulator.ts';
import { containerKubeconfig } from '../support/container-kubeconfig.ts';
import { createDeployment, example, phaseIs, waitForDeployment } from '../support/deployments.ts';
import { eventually, testKube, uniqueName, type TestKube } from '../support/env.ts';

const goMissing = spawnSync('go', ['version']).status === 0 ? undefined : 'no Go toolchain (the Temporal server and docker compose are built from the Go module proxy)';
const unavailable = dockerUnavailable() ?? baseImageUnavailable() ?? goMissing;
const ROOT = resolve(import.meta.dirname, '..', '..');
const say = (line: string) => process.stdout.write(`[compose] ${line}\n`);
const SERVICES = ['postgresql', 'temporal-schema', 'temporal', 'temporal-namespace', 'kubeairunway'];

describe.skipIf(unavailable !== undefined)(`docker compose up on a private Docker engine${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let engine: DockerEngine;
  let kube: TestKube;
  let dir: string;
  let compose: (args: string[], timeoutMs?: number) => Promise<string>;
  let temporalPort: number;
  const simulators: Simulator[] = [];
  const project = uniqueName('kar-compose');

  beforeAll(async () => {
    const t0 = Date.now();
    engine = await startDocker({ log: say });
    const dockerConfig = await ensureComposePlugin(say);
    const images = await ensureComposeImages(engine, say);
    const { tag: controllerImage } = await buildProjectImage(engine, ROOT, undefined, say);
    say(`images ready in ${((Date.now() - t0) / 1000).toFixed(0)}s: ${Object.values(images).join(', ')}, ${controllerImage}`);
    kube = await testKube('compose');
    dir = mkdtempSync(join(tmpdir(), 'kubeairunway-compose-'));
    temporalPort = await freePort();
    const metricsPort = await freePort();
    // The one override: the controller on the host's network (the local stack's API server is on its
    // loopback), watching only this test's namespace.
    const override = join(dir, 'compose.override.yml');
    // `!reset []`: no published ports on the host's network.
    const command = [
      'run', '--kubeconfig=/kube/config', `--temporal-address=127.0.0.1:${temporalPort}`, '--temporal-namespace=default',
      '--metrics-address=127.0.0.1', `--metrics-port=${metricsPort}`, `--namespaces=${kube.namespace}`, `--task-queue-prefix=${uniqueName('kar')}`,
    ];
    // And the namespace job dials Temporal with gRPC's passthrough resolver: this engine gives compose's
    // network no route out (no NAT), so the DNS TXT lookup gRPC makes for a name (`_grpc_config.temporal`),
    // which the embedded DNS forwards upstream, times out (30 s) and the CLI's health check with it.
    writeFileSync(
      override,
      [
        'services:',
        '  kubeairunway:',
        '    network_mode: host',
        '    ports: !reset []',
        `    command: ${JSON.stringify(command)}`,
        '  temporal-namespace:',
        '    environment:',
        '      TEMPORAL_ADDRESS: passthrough:///temporal:7233',
        '',
      ].join('\n'),
    );
    const env = {
      DOCKER_CONFIG: dockerConfig,
      POSTGRES_IMAGE: images.postgres,
      TEMPORAL_IMAGE: images.temporal,
      TEMPORAL_ADMINTOOLS_IMAGE: images.adminTools,
      KUBEAIRUNWAY_IMAGE: controllerImage,
      TEMPORAL_PORT: String(temporalPort),
      METRICS_PORT: String(metricsPort),
      KUBECONFIG_FILE: containerKubeconfig(dir),
    };
    compose = (args, timeoutMs = 300_000) =>
      engine.run(['compose', '-p', project, '--project-directory', ROOT, '-f', join(ROOT, 'docker-compose.yml'), '-f', override, ...args], { env, timeoutMs, onLine: (l) => /^\s*Container .*(Started|Healthy|Exited|Error)/.test(l) && say(l.trim()) });
    for (const script of UPSTREAM_SCRIPTS) simulators.push(await startSimulator(kube.kc, script, { readyAfterMs: 1_000 }));
    simulators.push(await startPodReadinessSimulator(kube.kc, { readyAfterMs: 1_000, namespaces: [kube.namespace] }));
  }, 90 * 60_000);

  afterAll(async () => {
    if (compose) await compose(['down', '--volumes', '--timeout', '30'], 180_000).catch((err: Error) => say(`compose down: ${err.message}`));
    await Promise.all(simulators.map((s) => s.stop()));
    await kube?.cleanup();
    await engine?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 240_000);

  it('brings PostgreSQL, Temporal and the controller up; a ModelDeployment reaches Running, and its history survives restarting Temporal', async () => {
    const t0 = Date.now();
    await compose(['up', '--detach', '--no-build', '--pull', 'never', ...SERVICES], 600_000);
    await eventually('the controller to log "controller running"', async () => (await compose(['logs', 'kubeairunway'], 30_000)).includes('controller running'), 180_000, 1_000);
    say(`compose up to "controller running": ${((Date.now() - t0) / 1000).toFixed(0)}s`);
    // The one-shot jobs ran to completion: schemas set up, namespace created.
    const jobs = await compose(['ps', '--all', '--format', 'json', 'temporal-schema', 'temporal-namespace'], 30_000);
    const states = jobs.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { Service: string; State: string; ExitCode: number });
    expect(states.map((s) => [s.Service, s.State, s.ExitCode]).sort()).toEqual([['temporal-namespace', 'exited', 0], ['temporal-schema', 'exited', 0]]);

    const md = example('gpu-vllm-dynamo.yaml', kube.namespace, (m) => {
      m.metadata.name = uniqueName('compose-md');
    });
    await createDeployment(md);
    const running = await waitForDeployment(kube.namespace, md.metadata.name!, 'Running (through the compose-run controller)', phaseIs('Running'), 180_000);
    const workflowId = workflowIdFor(MODEL_DEPLOYMENT_KIND, { namespace: kube.namespace, name: md.metadata.name!, uid: running.metadata.uid! });

    const history = async () => {
      const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
      try {
        const h = await new Client({ connection, namespace: 'default' }).workflow.getHandle(workflowId).fetchHistory();
        return (h.events ?? []).map((e) => `${String(e.eventId)} ${String(e.eventType)}`);
      } finally {
        await connection.close();
      }
    };
    const before = await history();
    expect(before.length).toBeGreaterThan(3);
    expect(before[0]).toMatch(/^1 /);

    const r0 = Date.now();
    await compose(['restart', 'temporal'], 180_000);
    const after = await eventually('the restarted Temporal to serve the history', () => history().catch(() => undefined), 180_000, 1_000);
    say(`temporal restarted and serving again in ${((Date.now() - r0) / 1000).toFixed(0)}s; history ${before.length} → ${after.length} events`);
    expect(after.slice(0, before.length)).toEqual(before);
    // The controller goes on through the restart: a change to the deployment reaches its workflow.
    await createDeployment({ ...md, metadata: { ...md.metadata, labels: { ...md.metadata.labels, restarted: 'yes' } } });
    await eventually('the workflow to record the change after the restart', async () => (await history()).length > after.length, 120_000, 1_000);
    expect((await waitForDeployment(kube.namespace, md.metadata.name!, 'Running', phaseIs('Running'))).status?.phase).toBe('Running');
  }, 20 * 60_000);
});
