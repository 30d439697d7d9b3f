// The side-by-side bench's peer plumbing, with a directory of small stand-in executables in the documented
// layout (docs/operations.md, "Benchmarks"): the layout is checked with errors naming the missing file, and
// the peer's processes are started with the documented flags and environment, metered (their /proc stats
// and the API server's request counter read), and stopped, none left. Not the figures: the stand-ins do
// no reconciling.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference } from '../../bench/versus/controller-processes.ts';
import { PEER_DIR_ENV, PeerDirError, peerDirArgument, resolvePeerDir } from '../../bench/versus/peer-dir.ts';
import { cost, snapshot } from '../../bench/versus/process-window.ts';
import { startMetered } from '../../bench/versus/subject-run.ts';
import { referenceSubject } from '../../bench/versus/subjects.ts';
import { kubeConfig, stackInfo } from '../support/env.ts';
import { pidExists } from '../../devstack/process.ts';

const REPO = new URL('../..', import.meta.url).pathname;
const BINARIES = ['manager', 'dynamo-provider', 'kaito-provider', 'kuberay-provider'];

/**
 * A stand-in peer binary: records its arguments and environment, logs what controller-runtime logs once its
 * caches are synced, burns a little CPU (so the meter has something to read) and runs until SIGTERM, which
 * it records too.
 */
function standIn(name: string, callsDir: string): string {
  const record = join(callsDir, `${name}.json`);
  return `#!${process.execPath}
const { appendFileSync } = require('node:fs');
const write = (what) => appendFileSync(${JSON.stringify(record)}, JSON.stringify(what) + '\\n');
write({ event: 'start', pid: process.pid, argv: process.argv.slice(2), env: { KUBECONFIG: process.env.KUBECONFIG, ENABLE_WEBHOOKS: process.env.ENABLE_WEBHOOKS } });
const until = Date.now() + 100;
while (Date.now() < until) Math.sqrt(Math.random());
console.log('INFO\tStarting workers\t{"controller": "${name}", "worker count": 1}');
const alive = setInterval(() => {}, 1000);
process.on('SIGTERM', () => { write({ event: 'SIGTERM', pid: process.pid }); clearInterval(alive); process.exit(0); });
`;
}

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: modeldeployments.airunway.ai
spec:
  group: airunway.ai
  names: { kind: ModelDeployment, plural: modeldeployments, singular: modeldeployment, listKind: ModelDeploymentList }
  scope: Namespaced
  versions:
    - name: v1alpha1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
`;

/** A peer directory in the documented layout, its binaries recording into `<root>/calls`. */
function makePeerDir(root: string): string {
  const dir = join(root, 'peer');
  mkdirSync(join(dir, 'bin'), { recursive: true });
  mkdirSync(join(dir, 'crds'), { recursive: true });
  mkdirSync(join(root, 'calls'), { recursive: true });
  for (const name of BINARIES) {
    writeFileSync(join(dir, 'bin', name), standIn(name, join(root, 'calls')));
    chmodSync(join(dir, 'bin', name), 0o755);
  }
  writeFileSync(join(dir, 'crds', 'airunway.ai_modeldeployments.yaml'), CRD);
  return dir;
}

type Call = { event: string; pid: number; argv?: string[]; env?: Record<string, string | undefined> };
const calls = (root: string, name: string): Call[] =>
  readFileSync(join(root, 'calls', `${name}.json`), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Call);

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'kubeairunway-versus-peer-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the peer directory', () => {
  it('is taken from --versus-peer, then --versus-reference, then the environment', () => {
    expect(peerDirArgument(['--versus-peer', '/a', '--quick'], { [PEER_DIR_ENV]: '/b' })).toBe('/a');
    expect(peerDirArgument(['--versus-reference', '/c'], {})).toBe('/c');
    expect(peerDirArgument(['--versus-peer', '--quick'], { [PEER_DIR_ENV]: '/b' })).toBe('/b');
    expect(peerDirArgument(['--versus-peer'], {})).toBeUndefined();
  });

  it('names the file that is missing or wrong', () => {
    const base = mkdtempSync(join(root, 'layout-'));
    const dir = makePeerDir(base);
    expect(resolvePeerDir(dir).providers.kaito).toBe(join(dir, 'bin', 'kaito-provider'));

    expect(() => resolvePeerDir(join(base, 'nowhere'))).toThrow(/peer directory .*nowhere does not exist/);
    chmodSync(join(dir, 'bin', 'dynamo-provider'), 0o644);
    expect(() => resolvePeerDir(dir)).toThrow(/the dynamo provider binary .*bin\/dynamo-provider is not executable/);
    chmodSync(join(dir, 'bin', 'dynamo-provider'), 0o755);
    unlinkSync(join(dir, 'bin', 'kuberay-provider'));
    expect(() => resolvePeerDir(dir)).toThrow(PeerDirError);
    expect(() => resolvePeerDir(dir)).toThrow(/the kuberay provider binary .*bin\/kuberay-provider is missing/);
    writeFileSync(join(dir, 'bin', 'kuberay-provider'), '#!/bin/sh\n');
    chmodSync(join(dir, 'bin', 'kuberay-provider'), 0o755);
    writeFileSync(join(dir, 'crds', 'airunway.ai_modeldeployments.yaml'), CRD.replaceAll('modeldeployments', 'somethingelse'));
    expect(() => resolvePeerDir(dir)).toThrow(/no file in .*crds defines the CRD modeldeployments.airunway.ai/);
    rmSync(join(dir, 'crds'), { recursive: true });
    expect(() => resolvePeerDir(dir)).toThrow(/the CRD folder .*crds is missing/);
    unlinkSync(join(dir, 'bin', 'manager'));
    expect(() => resolvePeerDir(dir)).toThrow(/the manager binary .*bin\/manager is missing/);
  });
});

describe('the peer processes', () => {
  it('start with the documented flags, are metered, and stop', async () => {
    const base = mkdtempSync(join(root, 'run-'));
    const peer = resolvePeerDir(makePeerDir(base));
    const logDir = join(base, 'logs');
    mkdirSync(logDir);
    const { kubeconfigPath } = stackInfo();
    const kc = kubeConfig();
    const token = kc.getCurrentUser()?.token;
    if (!token) throw new Error('the stack kubeconfig has no token');
    const subject = referenceSubject(REPO, 'bench-reference', () => startReference(peer, { kubeconfigPath, logDir, startTimeoutMs: 20_000 }));
    const started = await startMetered(subject, { apiServerUrl: kc.getCurrentCluster()!.server, token, backgroundPerSecond: 0 }, () => 0, () => undefined, 2_000);
    const pids = started.processes.map((p) => p.pid);
    try {
      expect(started.processes.map((p) => p.name)).toEqual(['reference manager', 'reference dynamo provider', 'reference kaito provider', 'reference kuberay provider']);
      // The flags and environment docs/operations.md gives.
      const common = ['--leader-elect=false', '--metrics-bind-address=0', '--health-probe-bind-address=0'];
      for (const [i, name] of BINARIES.entries()) {
        const [start] = calls(base, name);
        expect(start).toMatchObject({ event: 'start', pid: pids[i], env: { KUBECONFIG: kubeconfigPath, ENABLE_WEBHOOKS: 'false' } });
        expect(start!.argv).toEqual(name === 'manager' ? [...common, '--enable-provider-selector=true'] : common);
        expect(existsSync(join(logDir, `reference-${name}.log`))).toBe(true);
      }
      // Metered: the meter holds exactly these processes, and reads their memory and CPU from /proc.
      expect(started.meter.pids).toEqual(pids);
      expect(started.rssStartBytes).toBeGreaterThan(4 * 4 * 1024 * 1024);
      const before = await snapshot(started.meter);
      const after = await snapshot(started.meter);
      expect(before.cpu).toBeGreaterThan(0.1); // four Node stand-ins started, each spun up to 100 ms
      expect(before.counts.size).toBeGreaterThan(0);
      expect(cost(started.meter, before, after).cpuSeconds).toBeGreaterThanOrEqual(0);
    } finally {
      await started.controller.stop();
    }
    // Stopped by SIGTERM, each one, and none left.
    for (const [i, name] of BINARIES.entries()) expect(calls(base, name).at(-1)).toEqual({ event: 'SIGTERM', pid: pids[i] });
    expect(pids.filter(pidExists)).toEqual([]);
  });
});
