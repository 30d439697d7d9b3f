// The chaos run, shortened for the suite (`npm run chaos` is the long one): deployments created, scaled
// and deleted while the core workers, watchers, webhook, Temporal server and kube-apiserver are killed
// and restarted at random; nothing may be lost, duplicated, orphaned, left unconverged, deleted late or failed.
import { describe, expect, it } from 'vitest';
import { runChaos } from './chaos-run.ts';
import { chaosReportLines } from './report.ts';

describe('chaos', () => {
  it('survives random SIGKILLs of every part with nothing lost, duplicated, orphaned or failed', async () => {
    // At least four kills however slowly the parts restart on a loaded machine.
    const report = await runChaos({ initial: 15, durationMs: 45_000, killEveryMs: 6_000, minKills: 4, seed: 20261123, log: () => {} });
    const lines = chaosReportLines(report);
    expect(report.operations.created, lines.join('\n')).toBeGreaterThan(15);
    expect(
      {
        lost: report.deploymentsLost,
        duplicated: report.duplicatedProviderResources,
        orphaned: report.orphanedProviderResources,
        notConverged: report.deploymentsNotConverged,
        pastDeadline: report.deletionsPastDeadline,
        failed: report.workflowsFailed,
      },
      lines.join('\n'),
    ).toEqual({ lost: 0, duplicated: 0, orphaned: 0, notConverged: 0, pastDeadline: 0, failed: 0 });
  }, 600_000);
});
