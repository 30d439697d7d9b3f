import type { ChaosReport } from './chaos-run.ts';

/** The run's figures, one line each, the six that must be 0 last. */
export function chaosReportLines(r: ChaosReport): string[] {
  const list = (o: Record<string, number>) => Object.entries(o).map(([k, v]) => `${k} ${v}`).join(', ');
  return [
    `operations: ${list(r.operations)}`,
    `kills: ${list(r.kills) || 'none'}`,
    ...r.details.slice(0, 40).map((d) => `  ${d}`),
    `deployments lost ${r.deploymentsLost}, duplicated provider resources ${r.duplicatedProviderResources}, orphaned provider resources ${r.orphanedProviderResources}, ` +
      `deployments not converged ${r.deploymentsNotConverged}, deletions past the deadline ${r.deletionsPastDeadline}, workflows failed ${r.workflowsFailed}`,
  ];
}
