// The whole product on a local stack, as `kubeairunway dev` runs it (and the bench and the supervised
// stack's tests): dev's description of the product, which the composition root (worker/product.ts)
// starts as it starts `run`'s. What differs from `run` is data: simulators instead of upstream operators
// and a kubelet, the webhook registered with the local API server, a console that gets plain lines and
// only the step logs of failures, and `/healthz` naming the stack's servers and the watches that are down.

import { KubeConfig } from '@kubernetes/client-node';
import { createLogger } from '../observability/index.ts';
import type { HealthReport } from '../observability/metrics-server.ts';
import { builtinProviders } from '../providers/index.ts';
import type { Controller } from '../worker/controller.ts';
import { plainLog } from '../worker/product-log.ts';
import { startProduct, type ProductDescription } from '../worker/product.ts';
import type { ReconcileSettings } from '../workflows/settings.ts';
import { localSimulators } from './simulators/start.ts';
import type { Stack } from './stack.ts';

export interface LocalProduct {
  kc: KubeConfig;
  controller: Controller;
  webhookUrl: string | undefined;
  metricsUrl: string | undefined;
  activatorUrl: string | undefined;
  /** The stack's servers, this process's link to Temporal and its watches: what `/healthz` reports. */
  health(): HealthReport;
  /** Stops the parts in reverse order, each within a bounded time (the stack itself is the caller's). */
  stop(): Promise<void>;
}

export interface LocalProductOptions {
  webhook: boolean;
  simulatedReadyAfterMs: number;
  /** Serve the seed's Prometheus metrics on this port. */
  metricsPort?: number;
  /** Serve the KybernateWorkloads' activator on loopback at this port (0: any free port). */
  activatorPort?: number;
  settings?: Partial<ReconcileSettings>;
  /** API groups whose real operator runs beside (e.g. `ray.io`): not simulated. */
  realOperators?: readonly string[];
  /** Run this node's Kybernate worker on that containerd (the dev stack's node container). */
  node?: { name: string; containerdSocket: string };
  log?: (line: string) => void;
}

/**
 * Core worker, built-in provider workers, watcher, optionally the admission webhook, the simulated
 * upstream operators standing in for KAITO, Dynamo and KubeRay, and a simulated kubelet that makes the
 * pods of kinds like FlameCluster ready.
 */
export async function startLocalProduct(stack: Stack, opts: LocalProductOptions): Promise<LocalProduct> {
  const kc = new KubeConfig();
  kc.loadFromFile(stack.kubeconfigPath);
  const product = await startProduct(describeLocalProduct(stack, kc, opts));
  return { kc, controller: product.controller!, webhookUrl: product.webhookUrl, metricsUrl: product.metricsUrl, activatorUrl: product.served.activator, health: product.health, stop: product.stop };
}

export function describeLocalProduct(stack: Stack, kc: KubeConfig, opts: LocalProductOptions): ProductDescription {
  const stepsAndSdk = createLogger({ level: 'warn' });
  return {
    kc,
    temporal: { address: stack.temporalAddress, namespace: stack.temporalNamespace },
    core: true,
    watcher: true,
    providers: builtinProviders.map((p) => p.name),
    settings: opts.settings,
    // The kinds' flags as `run` takes them: the stack's broker, the activator on loopback, the node worker.
    flags: {
      amqpUrl: stack.amqpUrl,
      ...(opts.activatorPort !== undefined ? { activatorPort: opts.activatorPort, activatorAddress: '127.0.0.1' } : {}),
      ...(opts.node ? { node: true, nodeName: opts.node.name, containerdSocket: opts.node.containerdSocket } : {}),
    },
    ...(opts.metricsPort !== undefined ? { metrics: { port: opts.metricsPort, host: '127.0.0.1' } } : {}),
    health: { temporalLink: true, watches: true, sources: [() => stack.health().down.map((d) => `${d.name} (${d.reason} ${((Date.now() - d.since) / 1000).toFixed(0)}s ago; restarting)`)] },
    // Admission on the local API server too, so invalid specs fail at `kubectl apply` with the seed's messages.
    ...(opts.webhook ? { webhook: { namespace: 'kubeairunway-system', register: {} } } : {}),
    simulators: localSimulators(opts.simulatedReadyAfterMs, opts.realOperators),
    // Step logs only for failures here; the console belongs to the person trying the product. The SDK's
    // warnings join them as JSON on the same logger (not plain text of their own between them).
    log: plainLog(opts.log ?? (() => {}), { steps: stepsAndSdk, sdk: stepsAndSdk }),
  };
}
