// The controller's start and stop on a real Temporal connection (this project's test server) and no
// Kubernetes at all: its parts start in order, stop in reverse within their bounds, close the connection
// last, and a part that cannot start stops the ones before it and says why.
import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { kaitoProvider } from '../../providers/kaito/index.ts';
import { startController } from '../../worker/controller.ts';
import type { ControllerOptions } from '../../worker/controller-options.ts';
import { PartStartError } from '../../worker/parts.ts';
import type { TimePhase } from '../../worker/start-phases.ts';
import { workflowBundle } from '../support/controller.ts';
import { uniqueName } from '../support/env.ts';
import { testServerInfo } from '../support/time-skipping.ts';

/** A KubeConfig for an API server that refuses every connection: lists fail (and are retried), writes fail. */
function unreachableCluster(): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'none', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'nobody' }],
    contexts: [{ name: 'none', cluster: 'none', user: 'nobody' }],
    currentContext: 'none',
  });
  return kc;
}

/** Options for a subset of the controller, logging its lines and its start phases into `seen`. */
function options(parts: Pick<ControllerOptions, 'core' | 'watcher' | 'providers'> & Partial<ControllerOptions>, seen: { lines: string[]; phases: string[] }): ControllerOptions {
  const timePhase: TimePhase = async (phase, step) => {
    const result = await step();
    seen.phases.push(phase);
    return result;
  };
  return {
    kc: unreachableCluster(),
    temporalAddress: testServerInfo().temporalAddress,
    temporalNamespace: testServerInfo().temporalNamespace,
    settings: { taskQueuePrefix: uniqueName('lifecycle') },
    stopWithinMs: 10_000,
    log: (line) => seen.lines.push(line),
    timePhase,
    ...parts,
  };
}

const stopTrouble = (lines: readonly string[]) => lines.filter((l) => /did not stop|stopping failed/.test(l));

describe('the controller on a real Temporal connection', () => {
  it('starts its parts in order, then stops them all within their bounds and closes its connection', async () => {
    const seen = { lines: [] as string[], phases: [] as string[] };
    const controller = await startController(options({ core: true, watcher: true, providers: [], workflowBundle: await workflowBundle() }, seen));
    expect(seen.phases.filter((p) => !['informer sync', 'core worker'].includes(p))).toEqual(['temporal connection', 'informers', 'provider liveness', 'watcher', 'workers']);
    // The two waits side by side, each timed, before the part that holds them.
    expect(seen.phases.slice(4, 6).sort()).toEqual(['core worker', 'informer sync']);
    expect(seen.lines).toContain('controller running: core, watcher');

    const t0 = Date.now();
    await controller.stop();
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(stopTrouble(seen.lines)).toEqual([]);
    await expect(controller.client.workflowService.getSystemInfo({})).rejects.toThrow();
  });

  it('stops what started when a provider cannot register, workers created but never run among them, and says why as the cause did', async () => {
    const seen = { lines: [] as string[], phases: [] as string[] };
    const error = await startController(options({ core: true, watcher: true, providers: [kaitoProvider], workflowBundle: await workflowBundle() }, seen)).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(PartStartError);
    // The message is the cause's, through every part that wraps it.
    expect(error).toMatchObject({
      part: 'workers',
      message: expect.stringMatching(/ECONNREFUSED/),
      cause: { part: 'provider registration', cause: { part: 'provider kaito registration' } },
    });
    // Everything before the workers started, and was stopped without trouble.
    expect(seen.phases.slice(0, 6)).toEqual(['temporal connection', 'informers', 'provider liveness', 'provider signals', 'provider kaito', 'watcher']);
    expect(seen.phases.slice(6).sort()).toEqual(['core worker', 'informer sync', 'provider workers']);
    // The connection among them: it closes only once no worker holds it.
    expect(stopTrouble(seen.lines)).toEqual([]);
    expect(seen.lines.some((l) => l.startsWith('controller running'))).toBe(false);
  });
});
