// `kubeairunway history [KIND/]NAMESPACE/NAME`.

import { CliError } from '../../present/errors.ts';
import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { findNewestWorkflow, readWorkflowRuns } from './history-reader.ts';
import { historyText, type HistoryReport } from './history-format.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { getObject, objectName, openTarget, openTemporal } from './session.ts';
import { describeTarget, type TargetFlags } from './target.ts';
import { workflowListUrl, workflowRunUrl } from './temporal-ui.ts';
import { buildTimeline, type TimelineEntry } from './timeline.ts';

export interface HistoryOptions extends KubeOptions, TemporalOptions, TargetFlags {
  output: OperatorOutput;
  temporalUi: string;
  runs: string;
  failures?: boolean;
  steps?: boolean;
}

export async function runHistory(io: CliIO, args: string[], opts: HistoryOptions): Promise<ExitCode> {
  const maxRuns = Number(opts.runs);
  if (!Number.isInteger(maxRuns) || maxRuns < 1) throw new CliError(`--runs must be a whole number of at least 1, got '${opts.runs}'.`);
  const { kube, target } = openTarget(args[0]!, opts);
  const { kind, presentation } = target.kind;
  const obj = await getObject(kube, target);
  const temporal = await openTemporal(opts, io);
  try {
    // A deleted object's uid is gone with it: find its latest workflow by the kind's search attributes.
    const byName = presentation.workflowsByName(target.namespace, target.name);
    const workflowId = obj
      ? workflowIdFor(kind, { namespace: target.namespace, name: target.name, uid: obj.metadata?.uid ?? '' })
      : await findNewestWorkflow(temporal.client, byName, describeTarget(target));
    if (!workflowId) throw new CliError(`${objectName(target)} not found, and Temporal has no workflow for it.`);

    const read = await readWorkflowRuns(temporal.client, workflowId, maxRuns, presentation.noun);
    let timeline: TimelineEntry[] = buildTimeline(read.runs, Date.now(), presentation.noun);
    if (opts.steps) timeline = timeline.filter((e) => e.kind === 'step');
    if (opts.failures) timeline = timeline.filter((e) => e.error !== null || e.outcome === 'failed' || e.outcome === 'timed out');
    const report: HistoryReport = {
      kind,
      deployment: { namespace: target.namespace, name: target.name, uid: obj?.metadata?.uid ?? workflowId.split('/').at(-1) ?? null, exists: Boolean(obj) },
      workflowId,
      status: read.status,
      runs: read.runs.map((r) => ({ runId: r.runId, events: r.events.length })),
      olderRunsOmitted: read.olderRunsOmitted,
      ui: {
        run: workflowRunUrl(opts.temporalUi, temporal.namespace, workflowId, read.latestRunId),
        allRuns: workflowListUrl(opts.temporalUi, temporal.namespace, `WorkflowId = "${workflowId}"`),
        byName: workflowListUrl(opts.temporalUi, temporal.namespace, byName),
      },
      timeline,
    };
    io.stdout(opts.output === 'table' ? historyText(report) : formatStructured(report, opts.output));
    return 0;
  } finally {
    await temporal.close();
  }
}
