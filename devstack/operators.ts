// The real KubeRay and KEDA operators (built by `npm run tools`), run as processes against a local stack:
// loopback only, no leader election, metrics and health on free loopback ports, logs in the state folder,
// stopped by process id. The end-to-end tests use them in place of the simulated operators, and so can
// `npm run dev --real-operators`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveOperator } from '../tools/resolve.ts';
import { generateCertificates, hostsFrom } from '../webhook/certificates.ts';
import { probe } from './http.ts';
import { guardBesideStack } from './leftovers.ts';
import { freePort } from './ports.ts';
import { killChildrenOnExit, startProcess, stopProcess, waitUntil, type ManagedProcess } from './process.ts';

export interface OperatorOptions {
  kubeconfigPath: string;
  /** Where the log (and, for KEDA, its certificates) go: the stack's state folder. */
  stateDir: string;
  /** Only these namespaces (a test's own: files share one cluster); all when omitted. */
  namespaces?: readonly string[];
  /** How long start-up may take until the health endpoint answers. */
  readyWithinMs?: number;
}

export interface RunningOperator {
  name: string;
  pid: number;
  logFile: string;
  process: ManagedProcess;
  stop(): Promise<void>;
}

async function started(proc: ManagedProcess, stateDir: string, healthPort: number, readyWithinMs: number): Promise<RunningOperator> {
  // A test worker that exits without its afterAll (an uncaught error) must not leave the operator running;
  // nor one that is killed (no exit handler runs then): its guard stops the operator.
  killChildrenOnExit();
  const guard = guardBesideStack(stateDir, `${proc.name}-${proc.pid}`, [proc.pid]);
  const stop = async () => {
    await stopProcess(proc);
    guard.release();
  };
  // controller-runtime's /readyz answers once the manager runs; a crash at start shows the log's tail.
  try {
    await waitUntil(proc, 'ready', readyWithinMs, async () => (await probe(`http://127.0.0.1:${healthPort}/readyz`)).status === 200);
  } catch (err) {
    await stop();
    throw err;
  }
  return { name: proc.name, pid: proc.pid, logFile: proc.logFile, process: proc, stop };
}

/**
 * KubeRay's operator (RayCluster, RayService and RayJob controllers). Its CRDs must be installed first:
 * it does not start without all three. Without a kubelet its pods stay Pending, and it cannot reach a
 * head's dashboard (cluster DNS), so a RayService gets as far as its RayCluster, head Pod and Services.
 */
export async function startKuberayOperator(opts: OperatorOptions): Promise<RunningOperator> {
  const bin = resolveOperator('kuberay-operator');
  const [metrics, health] = [await freePort(), await freePort()];
  const logFile = join(opts.stateDir, `kuberay-operator-${health}.log`);
  const proc = startProcess(
    'kuberay-operator',
    bin,
    [
      `--kubeconfig=${opts.kubeconfigPath}`,
      `--metrics-addr=127.0.0.1:${metrics}`,
      `--health-probe-bind-address=127.0.0.1:${health}`,
      '--enable-leader-election=false',
      `--watch-namespace=${(opts.namespaces ?? []).join(',')}`,
      '--log-stdout-encoder=console',
    ],
    logFile,
  );
  return started(proc, opts.stateDir, health, opts.readyWithinMs ?? 60_000);
}

export interface KedaOperatorOptions extends OperatorOptions {
  /** Where KEDA looks for ClusterTriggerAuthentications' Secrets; `keda` unless told. */
  clusterObjectNamespace?: string;
}

/**
 * KEDA's operator: it scales a target between zero and its minimum itself (polling the trigger), and
 * owns an HPA for the rest, which needs KEDA's metrics API server (not run here). Its metrics gRPC server
 * insists on mutual-TLS material in --cert-dir (in a cluster a Secret mounts it): a throwaway CA and a
 * loopback certificate are generated for each start.
 */
export async function startKedaOperator(opts: KedaOperatorOptions): Promise<RunningOperator> {
  const bin = resolveOperator('keda-operator');
  const [metrics, health, grpc] = [await freePort(), await freePort(), await freePort()];
  const dir = join(opts.stateDir, `keda-operator-${health}`);
  const certDir = join(dir, 'certs');
  const caDir = join(dir, 'ca');
  mkdirSync(certDir, { recursive: true });
  mkdirSync(caDir, { recursive: true });
  const certs = await generateCertificates({ hosts: hostsFrom(['localhost', '127.0.0.1']), now: Date.now(), validityMs: 24 * 3600_000, caName: 'kubeairunway-local-keda-ca' });
  writeFileSync(join(certDir, 'ca.crt'), certs.caPem);
  writeFileSync(join(certDir, 'tls.crt'), certs.serving.certPem);
  writeFileSync(join(certDir, 'tls.key'), certs.serving.keyPem, { mode: 0o600 });
  const proc = startProcess(
    'keda-operator',
    bin,
    [
      `--kubeconfig=${opts.kubeconfigPath}`,
      `--metrics-bind-address=127.0.0.1:${metrics}`,
      `--health-probe-bind-address=127.0.0.1:${health}`,
      `--metrics-service-bind-address=127.0.0.1:${grpc}`,
      '--leader-elect=false',
      `--cert-dir=${certDir}`,
      // No extra CA bundle for scalers' TLS: an empty folder instead of the image's /custom/ca.
      `--ca-dir=${caDir}`,
      '--zap-log-level=info',
      '--zap-encoder=console',
    ],
    join(dir, 'keda-operator.log'),
    {
      // Required by KEDA: the namespaces to watch, empty for all.
      WATCH_NAMESPACE: (opts.namespaces ?? []).join(','),
      // Otherwise read from the service-account mount a pod would have.
      KEDA_CLUSTER_OBJECT_NAMESPACE: opts.clusterObjectNamespace ?? 'keda',
      POD_NAMESPACE: opts.clusterObjectNamespace ?? 'keda',
    },
  );
  return started(proc, opts.stateDir, health, opts.readyWithinMs ?? 60_000);
}

export interface RealOperators {
  operators: RunningOperator[];
  /** The API groups whose simulated operator must not run beside them. */
  simulatorsReplaced: string[];
  stop(): Promise<void>;
}

/** Both operators on every namespace (`dev --real-operators`), started one after the other. */
export async function startRealOperators(opts: Omit<OperatorOptions, 'namespaces'>): Promise<RealOperators> {
  const operators: RunningOperator[] = [];
  const stop = async () => void (await Promise.all(operators.map((o) => o.stop())));
  try {
    operators.push(await startKuberayOperator(opts));
    operators.push(await startKedaOperator(opts));
  } catch (err) {
    await stop();
    throw err;
  }
  return { operators, simulatorsReplaced: ['ray.io'], stop };
}
