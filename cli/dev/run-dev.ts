import { stackCrdFiles } from '../../devstack/crd-files.ts';
import { startLocalProduct } from '../../devstack/local-product.ts';
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
  const product = await startLocalProduct(stack, { webhook: true, simulatedReadyAfterMs: 5_000, metricsPort: await preferredPort(9090), log });
  process.stdout.write(
    [
      '',
      'kubeairunway is running on a local stack.',
      `  kubeconfig:   ${stack.kubeconfigPath}`,
      `  try:          kubectl --kubeconfig ${stack.kubeconfigPath} get namespaces`,
      `  Temporal UI:  ${stack.temporalUiUrl}`,
      `  Temporal:     ${stack.temporalAddress} (namespace ${stack.temporalNamespace})`,
      `  webhook:      ${product.webhookUrl}`,
      `  metrics:      ${product.metricsUrl}`,
      `  logs:         ${stack.stateDir}/*.log`,
      `  deploy:       kubectl --kubeconfig ${stack.kubeconfigPath} apply -f examples/gpu-vllm-dynamo.yaml`,
      `  watch:        kubectl --kubeconfig ${stack.kubeconfigPath} get md -w`,
      `  history:      npm run kubeairunway -- history default/llama-8b --kubeconfig ${stack.kubeconfigPath}`,
      `                ${stack.temporalUiUrl}/namespaces/${stack.temporalNamespace}/workflows?query=${encodeURIComponent('MdName="llama-8b"')}`,
      'Press Ctrl-C to stop everything.',
      '',
    ].join('\n'),
  );
  await untilInterrupted(() => log('still stopping; press Ctrl-C twice more to kill everything at once'));
  log('stopping ...');
  await product.stop();
  // The stack's servers are stopped by process id, whatever happened above.
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

