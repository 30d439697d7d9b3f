import { RESTORE_LABEL, WORKLOAD_LABEL } from '../../api/kybernate/constants.ts';
import type { StartSimulators } from '../../worker/product.ts';
import { startPodReadinessSimulator } from './pod-readiness.ts';
import { UPSTREAM_SCRIPTS } from './scripts.ts';
import { startSimulator } from './simulator.ts';

/**
 * The local stack's simulators as one part of the product (worker/product.ts starts whatever the
 * description hands it, and imports nothing of devstack/): no GPUs or upstream operators here, so
 * simulated ones write the upstream status, reporting ready after `readyAfterMs`, except for the API
 * groups in `realOperators` (their real operator runs: `dev --real-operators`). No kubelet either: the
 * pods that kinds like FlameCluster and KybernateRestore create are made Running (or Failed) by one each.
 */
export function localSimulators(readyAfterMs: number, realOperators: readonly string[] = []): StartSimulators & { readyAfterMs: number; realOperators: readonly string[] } {
  const start: StartSimulators['start'] = async ({ kc, log, namespaces }) => {
    const starting = await Promise.allSettled([
      ...UPSTREAM_SCRIPTS.filter((script) => !realOperators.includes(script.group)).map((script) => startSimulator(kc, script, { readyAfterMs, log })),
      startPodReadinessSimulator(kc, { readyAfterMs, log, namespaces }),
      // KybernateRestores' pods too: nothing here restores them from their checkpoint, they just start.
      startPodReadinessSimulator(kc, { readyAfterMs, log, namespaces, labelSelector: RESTORE_LABEL }),
      // And KybernateWorkloads' pods: started (or "restored") as if by a kubelet, never checkpointed for real.
      startPodReadinessSimulator(kc, { readyAfterMs, log, namespaces, labelSelector: WORKLOAD_LABEL }),
    ]);
    const simulators = starting.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    const stop = async () => void (await Promise.all(simulators.map((s) => s.stop())));
    const failed = starting.find((s) => s.status === 'rejected');
    if (failed) {
      // The ones that did start are this part's to stop: the part as a whole did not start.
      await stop();
      throw failed.reason;
    }
    return { stop };
  };
  return { readyAfterMs, realOperators, start };
}
