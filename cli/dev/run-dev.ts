import { KubeConfig } from '@kubernetes/client-node';
import { stackCrdFiles } from '../../devstack/crd-files.ts';
import { UPSTREAM_SCRIPTS } from '../../devstack/simulators/scripts.ts';
import { startSimulator } from '../../devstack/simulators/simulator.ts';
import { builtinProviders } from '../../providers/index.ts';
import { startController } from '../../worker/controller.ts';
import { lineLogger, startWebhookServer } from '../../webhook/index.ts';
import { preferredPort } from '../../devstack/ports.ts';
import { startStack } from '../../devstack/stack.ts';
import { killAllNow } from '../../devstack/process.ts';
import { repoRoot } from '../repo-root.ts';

export interface DevOptions {
  stateDir: string;
}

/** The embedded run: the whole local stack on loopback, until Ctrl-C. */
export async function runDev(opts: DevOptions): Promise<void> {
  const log = (line: string) => process.stdout.write(`[dev] ${line}\n`);
  const stack = await startStack({
    stateDir: opts.stateDir,
    crdFiles: stackCrdFiles(repoRoot()),
    temporalUi: true,
    temporalPersistent: true,
    temporalPort: await preferredPort(7233),
    temporalUiPort: await preferredPort(8233),
    log,
  });
  const kc = new KubeConfig();
  kc.loadFromFile(stack.kubeconfigPath);
  const controller = await startController({
    kc,
    temporalAddress: stack.temporalAddress,
    temporalNamespace: stack.temporalNamespace,
    core: true,
    watcher: true,
    providers: builtinProviders,
    log,
  });
  // Admission on the local API server too, so invalid specs fail at `kubectl apply` with the seed's messages.
  const webhook = await startWebhookServer({ kc, namespace: 'kubeairunway-system', register: {}, log: lineLogger(log) });
  // No GPUs or upstream operators here: simulated ones write the upstream status instead.
  const simulators = await Promise.all(UPSTREAM_SCRIPTS.map((script) => startSimulator(kc, script, { readyAfterMs: 5_000, log })));
  process.stdout.write(
    [
      '',
      'kubeairunway is running on a local stack.',
      `  kubeconfig:   ${stack.kubeconfigPath}`,
      `  try:          kubectl --kubeconfig ${stack.kubeconfigPath} get namespaces`,
      `  Temporal UI:  ${stack.temporalUiUrl}`,
      `  Temporal:     ${stack.temporalAddress} (namespace ${stack.temporalNamespace})`,
      `  webhook:      ${webhook.url}`,
      `  logs:         ${stack.stateDir}/*.log`,
      `  deploy:       kubectl --kubeconfig ${stack.kubeconfigPath} apply -f examples/gpu-vllm-dynamo.yaml`,
      `  watch:        kubectl --kubeconfig ${stack.kubeconfigPath} get md -w`,
      `  history:      ${stack.temporalUiUrl}/namespaces/${stack.temporalNamespace}/workflows?query=${encodeURIComponent('MdName="llama-8b"')}`,
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
  await untilInterrupted(() => log('still stopping; press Ctrl-C twice more to kill everything at once'));
  log('stopping ...');
  // Each part gets a bounded time to stop cleanly; the stack's servers are stopped by process id regardless.
  await bounded('simulators', Promise.all(simulators.map((s) => s.stop())), log);
  await bounded('webhook', webhook.stop(), log);
  await bounded('controller', controller.stop(), log);
  await stack.stop();
  log('stopped');
}

/**
 * Resolves on the first SIGINT or SIGTERM and keeps handling later ones: a terminal's Ctrl-C reaches
 * every process of the group, and wrappers (npm, tsx) relay it once more, so a one-shot handler would
 * let the second signal kill this process before it stopped its children. A third signal kills the
 * children at once and exits.
 */
function untilInterrupted(onRepeat: () => void): Promise<void> {
  return new Promise((resolve) => {
    let count = 0;
    const onSignal = () => {
      count++;
      if (count === 1) resolve();
      else if (count < 3) onRepeat();
      else {
        killAllNow();
        process.exit(130);
      }
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

async function bounded(what: string, stopping: Promise<unknown>, log: (line: string) => void, ms = 15_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  const result = await Promise.race([stopping.then(() => 'done' as const, (err: Error) => (log(`${what}: ${err.message}`), 'done' as const)), timeout]);
  clearTimeout(timer);
  if (result === 'timeout') log(`${what} did not stop within ${ms / 1000}s; going on`);
}
