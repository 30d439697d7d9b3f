import { describe, expect, it } from 'vitest';
import type { ModelDeployment } from '../api/types.ts';
import { createMetrics, METRIC_NAMES } from './metrics.ts';
import { startMetricsServer } from './metrics-server.ts';

const running: ModelDeployment = {
  metadata: { namespace: 'default', name: 'llama' },
  spec: {} as ModelDeployment['spec'],
  status: { phase: 'Running', replicas: { desired: 1, ready: 1 } },
};

describe('createMetrics', () => {
  it('registers the six metrics of seed 001 §9 with their labels', async () => {
    const metrics = createMetrics();
    metrics.reconciliationErrors.inc({ provider: 'kaito', error_type: 'KubeForbidden' });
    metrics.providerSelection.inc({ provider: 'kaito', reason: 'explicit provider selection' });
    metrics.reconciliationDuration.observe({ provider: 'kaito' }, 0.2);
    metrics.observeDeployments(() => [running]);
    const text = await metrics.registry.metrics();
    for (const name of Object.values(METRIC_NAMES)) expect(text).toContain(`# TYPE ${name} `);
    expect(text).toContain('kubeairunway_modeldeployment_total{namespace="default",phase="Running"} 1');
    expect(text).toContain('kubeairunway_modeldeployment_total{namespace="default",phase="Failed"} 0');
    expect(text).toContain('kubeairunway_deployment_replicas{name="llama",namespace="default",state="ready"} 1');
    expect(text).toContain('kubeairunway_deployment_phase{name="llama",namespace="default",phase="Running"} 1');
    expect(text).toContain('kubeairunway_reconciliation_errors_total{provider="kaito",error_type="KubeForbidden"} 1');
    expect(text).toContain('kubeairunway_provider_selection{provider="kaito",reason="explicit provider selection"} 1');
    expect(text).toContain('kubeairunway_reconciliation_duration_seconds_count{provider="kaito"} 1');
  });

  it('drops a deleted deployment from the gauges at the next scrape', async () => {
    const metrics = createMetrics();
    let deployments = [running];
    metrics.observeDeployments(() => deployments);
    expect(await metrics.registry.metrics()).toContain('name="llama"');
    deployments = [];
    expect(await metrics.registry.metrics()).not.toContain('name="llama"');
  });

  it('keeps separate registries apart', async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.reconciliationErrors.inc({ provider: 'kaito', error_type: 'X' });
    expect(await b.registry.metrics()).not.toContain('error_type="X"');
  });
});

describe('startMetricsServer', () => {
  it('serves /metrics in the Prometheus text format, /healthz, and 404 elsewhere', async () => {
    const metrics = createMetrics();
    metrics.observeDeployments(() => [running]);
    const server = await startMetricsServer({ registry: metrics.registry, port: 0, host: '127.0.0.1' });
    try {
      const res = await fetch(server.url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      expect(await res.text()).toContain('kubeairunway_deployment_phase{name="llama"');
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${server.port}/nope`)).status).toBe(404);
      expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.stop();
    }
  });
});
