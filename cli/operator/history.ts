// `kubeairunway history NAMESPACE/NAME`.

import { CliError } from '../errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import { workflowIdFor } from '../../workflows/ids.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { findWorkflowByName, readWorkflowRuns } from './history-reader.ts';
import { historyText, type HistoryReport } from './history-format.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { getDeployment, openTarget, openTemporal } from './session.ts';
import { describeTarget } from './target.ts';
import { workflowListUrl, workflowRunUrl } from './temporal-ui.ts';
import { buildTimeline, type TimelineEntry } from './timeline.ts';

export interface HistoryOptions extends KubeOptions, TemporalOptions {
  namespace?: string;
  output: OperatorOutput;
  temporalUi: string;
  runs: string;
  failures?: boolean;
  steps?: boolean;
}

export async function runHistory(io: CliIO, args: string[], opts: HistoryOptions): Promise<ExitCode> {
  const maxRuns = Number(opts.runs);
  if (!Number.isInteger(maxRuns) || maxRuns < 1) throw new CliError(`--runs must be a whole number of at least 1, got '${opts.runs}'.`);
  const { kube, target } = openTarget(args[0]!, opts.namespace, opts);
  const md = await getDeployment(kube, target);
  const temporal = await openTemporal(opts, io);
  try {
    // A deleted deployment's uid is gone with it: find its latest workflow by the search attributes.
    const workflowId = md
      ? workflowIdFor({ namespace: target.namespace, name: target.name, uid: md.metadata.uid ?? '' })
      : await findWorkflowByName(temporal.client, target.namespace, target.name);
    if (!workflowId) throw new CliError(`ModelDeployment ${describeTarget(target)} not found, and Temporal has no workflow for it.`);

    const read = await readWorkflowRuns(temporal.client, workflowId, maxRuns);
    let timeline: TimelineEntry[] = buildTimeline(read.runs);
    if (opts.steps) timeline = timeline.filter((e) => e.kind === 'step');
    if (opts.failures) timeline = timeline.filter((e) => e.error !== null || e.outcome === 'failed' || e.outcome === 'timed out');
    const report: HistoryReport = {
      deployment: { namespace: target.namespace, name: target.name, uid: md?.metadata.uid ?? workflowId.split('/').at(-1) ?? null, exists: Boolean(md) },
      workflowId,
      status: read.status,
      runs: read.runs.map((r) => ({ runId: r.runId, events: r.events.length })),
      olderRunsOmitted: read.olderRunsOmitted,
      ui: {
        run: workflowRunUrl(opts.temporalUi, temporal.namespace, workflowId, read.latestRunId),
        allRuns: workflowListUrl(opts.temporalUi, temporal.namespace, `WorkflowId = "${workflowId}"`),
      },
      timeline,
    };
    io.stdout(opts.output === 'table' ? historyText(report) : formatStructured(report, opts.output));
    return 0;
  } finally {
    await temporal.close();
  }
}
