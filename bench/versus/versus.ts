// `npm run bench -- --versus-peer <dir> [--quick]`: our controller and a peer controller the user already
// has (the Go reference, built their own way; layout in peer-dir.ts) on one local stack, one after the
// other, same spec, same readiness driver; see report.ts for what is compared. Without a peer directory,
// ours runs alone and the bench says how to give one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { Client, Connection } from '@temporalio/client';
import { stackCrdFiles } from '../../devstack/crd-files.ts';
import { startStack, type Stack } from '../../devstack/stack.ts';
import { CustomObjects, collectionPath } from '../../kube/custom-objects.ts';
import { readRequestCounts, total, delta } from './apiserver-requests.ts';
import { sleep } from './concurrency.ts';
import { buildOurs, startOurs, startReference } from './controller-processes.ts';
import { DGD_CRD, oursDynamoVersion, storeDynamoAs } from './dynamo-storage.ts';
import { sampleFieldLoss, type FieldLossSample } from './field-loss.ts';
import { DeploymentTracker } from './deployment-tracker.ts';
import { watchCollection, type ObjectWatch } from './object-watch.ts';
import { PEER_DIR_ENV, PEER_DIR_FLAG, PEER_DIR_HOWTO, resolvePeerDir, type PeerDir } from './peer-dir.ts';
import { ReadinessDriver } from './readiness-driver.ts';
import { formatBreakdown, ourReconcileBreakdown } from './reconcile-breakdown.ts';
import { buildReport, requestMix } from './report.ts';
import { runSubject, type SubjectResult } from './subject-run.ts';
import { oursSubject, referenceSubject, type Subject } from './subjects.ts';

export interface VersusOptions {
  repoRoot: string;
  quick: boolean;
  singles: number;
  /** Burst sizes instead of 100 (and 1,000 unless quick); the ratio line reads the 100 and 1,000 ones. */
  bursts?: number[];
  /** The peer's directory (`--versus-peer` or KUBEAIRUNWAY_BENCH_PEER_DIR); without it ours runs alone. */
  peerDir?: string;
  /** Ours alone even when a peer directory is given: for trying a change to ours (no ratio line then). */
  oursOnly?: boolean;
  log: (line: string) => void;
}

const NAMESPACES = { ours: 'bench-ours', reference: 'bench-reference' } as const;
const FIELD_MANAGER = 'kubeairunway-bench';

/** A namespace with the Secret the example names, so neither controller warns about a missing token. */
async function prepareNamespace(kc: KubeConfig, namespace: string): Promise<void> {
  const objects = new CustomObjects(kc);
  await objects.apply({ group: '', version: 'v1', plural: 'namespaces', name: namespace }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, FIELD_MANAGER);
  await objects.apply(
    { group: '', version: 'v1', plural: 'secrets', namespace, name: 'hf-token' },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'hf-token', namespace }, stringData: { HF_TOKEN: 'not-a-real-token' } },
    FIELD_MANAGER,
  );
}

/** How many provider resources are compared with what their controller wrote, after its first burst. */
const FIELD_LOSS_SAMPLE = 5;

async function sampleProviderResources(objects: CustomObjects, dgd: ReadinessDriver['dgd'], namespace: string): Promise<FieldLossSample> {
  const stored = await objects.list({ ...dgd, namespace, limit: FIELD_LOSS_SAMPLE });
  return sampleFieldLoss('DynamoGraphDeployment', stored);
}

/** The report's lines, the ratio line last; `ok` is false when a controller stopped early. */
export async function benchVersus(opts: VersusOptions): Promise<{ lines: string[]; ok: boolean }> {
  const { log } = opts;
  const bursts = opts.bursts ?? (opts.quick ? [100] : [100, 1000]);
  const idleSeconds = opts.quick ? 30 : 60;
  // A directory that is given but wrong stops the bench here, before any stack starts: the error names the file.
  const peer: PeerDir | undefined = opts.oursOnly || !opts.peerDir ? undefined : resolvePeerDir(opts.peerDir);
  const skipped = opts.oursOnly ? '--ours-only' : peer ? undefined : `no peer directory given (${PEER_DIR_FLAG} <dir> or ${PEER_DIR_ENV})`;
  if (opts.oursOnly) log('reference skipped: --ours-only; measuring ours alone');
  else if (!peer) log(PEER_DIR_HOWTO);
  else log(`peer: ${peer.dir} (its manager, its providers and ${peer.crdFiles.length} CRD file(s))`);

  const stateDir = mkdtempSync(join(tmpdir(), 'kubeairunway-versus-'));
  // Children run in their own process groups: on Ctrl-C, exit through the handlers that stop them.
  const onSignal = () => process.exit(130);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let stack: Stack | undefined;
  const watches: ObjectWatch[] = [];
  let driver: ReadinessDriver | undefined;
  let connection: Connection | undefined;
  let ok = false;
  try {
    log(`local stack in ${stateDir}`);
    // The peer's CRDs go in with ours and the upstream ones, before kube-controller-manager starts, so its
    // garbage collector knows every owner kind from the start.
    const crdFiles = [...stackCrdFiles(opts.repoRoot), ...(peer?.crdFiles ?? [])];
    stack = await startStack({ stateDir, crdFiles, log: (l) => log(`[stack] ${l}`) });
    const kc = new KubeConfig();
    kc.loadFromFile(stack.kubeconfigPath);
    const token = kc.getCurrentUser()?.token;
    if (!token) throw new Error('the stack kubeconfig has no admin token');

    const objects = new CustomObjects(kc);
    const build = await buildOurs(opts.repoRoot);
    log(`ours built in ${build.seconds.toFixed(1)} s (${build.outDir}; not part of its start figure)`);
    const subjects: Subject[] = [];
    const temporal = stack.processes.find((p) => p.name === 'temporal')!;
    const s = stack;
    const oursDynamo = oursDynamoVersion(await objects.get(DGD_CRD));
    subjects.push(oursSubject(opts.repoRoot, NAMESPACES.ours, () => startOurs(build.outDir, s, NAMESPACES.ours), temporal.pid, oursDynamo));
    if (peer) subjects.push(referenceSubject(opts.repoRoot, NAMESPACES.reference, () => startReference(peer, { kubeconfigPath: s.kubeconfigPath, logDir: s.stateDir })));

    const trackers = new Map<string, DeploymentTracker>();
    for (const subject of subjects) {
      await prepareNamespace(kc, subject.namespace);
      const tracker = new DeploymentTracker();
      trackers.set(subject.namespace, tracker);
      const path = collectionPath({ group: subject.group, version: subject.version, plural: subject.plural, namespace: subject.namespace });
      watches.push(await watchCollection(kc, path, (type, obj, at) => tracker.onModelDeployment(type, obj, at)));
    }
    driver = await ReadinessDriver.start(kc, trackers);
    const dgd = driver.dgd;

    // What the API server serves with no controller running, so it is not charged to either.
    const b0 = await readRequestCounts(stack.kubeApiServerUrl, token);
    await sleep(10_000);
    const background = total(delta(await readRequestCounts(stack.kubeApiServerUrl, token), b0)) / 10;
    log(`API server background: ${background.toFixed(1)} requests/s with no controller running`);

    connection = await Connection.connect({ address: stack.temporalAddress });
    const client = new Client({ connection, namespace: stack.temporalNamespace });
    const results: SubjectResult[] = [];
    for (const subject of subjects) {
      const tracker = trackers.get(subject.namespace)!;
      await storeDynamoAs(objects, subject.dynamoVersion);
      log(`${DGD_CRD.name} now stores ${subject.dynamoVersion}, the version ${subject.label} writes (no conversion on this stack)`);
      results.push(
        await runSubject(subject, {
          kc,
          tracker,
          driver,
          meter: { apiServerUrl: stack.kubeApiServerUrl, token, backgroundPerSecond: Math.max(0, background) },
          singles: opts.singles,
          bursts,
          idleSeconds,
          sampleFieldLoss: (namespace) => sampleProviderResources(objects, dgd, namespace),
          breakdown: (apply) =>
            subject.label === 'ours'
              ? ourReconcileBreakdown(client, { namespace: subject.namespace, name: apply.name, uid: apply.uid }, apply)
              : Promise.resolve(formatBreakdown(`the same milestones for the reference (${subject.namespace}/${apply.name}, its median single apply; it keeps no history):`, apply, [])),
          log,
        }),
      );
    }

    const [ours, reference] = results as [SubjectResult, SubjectResult | undefined];
    const report = buildReport(ours, reference, { bursts, quick: opts.quick, referenceSkipped: skipped });
    const out: string[] = [''];
    for (const r of results) if (r.breakdown) out.push(...r.breakdown, '');
    for (const r of results) {
      const b = r.bursts.find((x) => x.size === 100) ?? r.bursts[0];
      if (b) out.push(`API-server requests per deployment, ${r.subject.label}, burst ${b.size} (before subtracting the bench's own): ${requestMix(b.cost.byKind, b.size)}`);
    }
    for (const r of results) if (r.error) out.push(`${r.subject.label} stopped early: ${r.error}`);
    out.push('', ...report.lines, report.ratioLine);
    ok = results.every((r) => !r.error);
    return { lines: out, ok };
  } finally {
    for (const w of watches) w.stop();
    driver?.stop();
    await connection?.close().catch(() => undefined);
    await stack?.stop();
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    // Logs are kept when something went wrong.
    if (ok) rmSync(stateDir, { recursive: true, force: true });
    else log(`logs kept in ${stateDir}`);
  }
}
