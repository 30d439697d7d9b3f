// The Prometheus metrics of seed 001 §9, with the seed's names and labels, in a registry of their own
// (several controllers in one test process must not share one). Deployment metrics are computed at
// scrape time from the ModelDeployments the process sees; controller metrics are recorded by the
// activity interceptor (activity-interceptor.ts), so the workflow code knows nothing about metrics.

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { SampledDeployment } from './deployment-samples.ts';
import { deploymentSamples } from './deployment-samples.ts';

export const METRIC_NAMES = {
  modelDeploymentTotal: 'kubeairunway_modeldeployment_total',
  reconciliationDuration: 'kubeairunway_reconciliation_duration_seconds',
  reconciliationErrors: 'kubeairunway_reconciliation_errors_total',
  providerSelection: 'kubeairunway_provider_selection',
  deploymentReplicas: 'kubeairunway_deployment_replicas',
  deploymentPhase: 'kubeairunway_deployment_phase',
} as const;

export interface ControllerMetrics {
  registry: Registry;
  reconciliationDuration: Histogram<'provider'>;
  reconciliationErrors: Counter<'provider' | 'error_type'>;
  providerSelection: Counter<'provider' | 'reason'>;
  /** Where the deployment gauges read from at scrape time; until set they are empty. */
  observeDeployments(source: () => Iterable<SampledDeployment>): void;
}

export interface MetricsOptions {
  registry?: Registry;
  /** Also export Node.js process metrics (heap, event loop lag); on in `run`, off in tests. */
  processMetrics?: boolean;
}

export function createMetrics(opts: MetricsOptions = {}): ControllerMetrics {
  const registry = opts.registry ?? new Registry();
  if (opts.processMetrics) collectDefaultMetrics({ register: registry });
  let source: () => Iterable<SampledDeployment> = () => [];
  const samples = () => deploymentSamples(source());

  new Gauge({
    name: METRIC_NAMES.modelDeploymentTotal,
    help: 'ModelDeployments by namespace and phase',
    labelNames: ['namespace', 'phase'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of samples().totals) this.set({ namespace: s.namespace, phase: s.phase }, s.count);
    },
  });
  new Gauge({
    name: METRIC_NAMES.deploymentReplicas,
    help: 'Replicas of a ModelDeployment as its provider reports them (state: desired, ready, available)',
    labelNames: ['name', 'namespace', 'state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of samples().replicas) this.set({ name: s.name, namespace: s.namespace, state: s.state }, s.value);
    },
  });
  new Gauge({
    name: METRIC_NAMES.deploymentPhase,
    help: 'Phase of a ModelDeployment: 1 for its current phase, 0 for the others',
    labelNames: ['name', 'namespace', 'phase'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const s of samples().phases) this.set({ name: s.name, namespace: s.namespace, phase: s.phase }, s.value);
    },
  });

  return {
    registry,
    reconciliationDuration: new Histogram({
      name: METRIC_NAMES.reconciliationDuration,
      help: "Time a provider took to reconcile a deployment once (compatibility check, apply and observe of one pass; or one cleanup)",
      labelNames: ['provider'] as const,
      // Kubernetes round trips: tens of milliseconds when healthy, seconds when the API server struggles.
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    reconciliationErrors: new Counter({
      name: METRIC_NAMES.reconciliationErrors,
      help: 'Failed reconciliation steps, by provider and failure type (e.g. KubeForbidden, ValidationFailed, CRDNotInstalled)',
      labelNames: ['provider', 'error_type'] as const,
      registers: [registry],
    }),
    providerSelection: new Counter({
      name: METRIC_NAMES.providerSelection,
      help: 'Providers selected for ModelDeployments, by provider and selection reason',
      labelNames: ['provider', 'reason'] as const,
      registers: [registry],
    }),
    observeDeployments(next) {
      source = next;
    },
  };
}
