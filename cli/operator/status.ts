// `kubeairunway status [[KIND/]NAMESPACE/NAME]`, or every object of a kind (--kind, ModelDeployments by default).

import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import { mapLimit } from './command.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { DEFAULT_KIND, resolveKind } from './kinds.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { listObjects, openKube, openTarget, openTemporal, requireObject } from './session.ts';
import type { TargetFlags } from './target.ts';
import { workflowState, type WorkflowState } from './workflow-state.ts';
import { workflowIdFor } from '../../contract/object-ref.ts';

export interface StatusOptions extends KubeOptions, TemporalOptions, TargetFlags {
  output: OperatorOutput;
}

export async function runStatus(io: CliIO, args: string[], opts: StatusOptions): Promise<ExitCode> {
  const single = args[0] !== undefined;
  // The kind is checked before the kubeconfig is read, as the target is.
  const target = single ? openTarget(args[0]!, opts) : undefined;
  const kind = target?.target.kind ?? resolveKind(opts.kind ?? DEFAULT_KIND);
  const kube = target?.kube ?? openKube(opts);
  const objects = target ? [await requireObject(kube, target.target)] : await listObjects(kube, kind, opts.namespace);
  if (objects.length === 0) {
    if (opts.output === 'table') {
      io.stderr(`No ${kind.kind}s found${opts.namespace ? ` in namespace ${opts.namespace}` : ''}.\n`);
      return 0;
    }
  }

  // Without Temporal the cluster's half of the answer is still worth printing; say what is missing.
  let unreachable: string | undefined;
  const temporal = objects.length > 0 ? await openTemporal(opts, io).catch((err: Error) => void (unreachable = err.message)) : undefined;
  const view = kind.presentation.status;
  try {
    const now = Date.now();
    const rows = await mapLimit(objects, 8, async (obj) => {
      const m = obj.metadata ?? {};
      const id = workflowIdFor(kind.kind, { namespace: m.namespace ?? '', name: m.name ?? '', uid: m.uid ?? '' });
      const wf = temporal ? await workflowState(temporal.client, id, { noun: kind.presentation.noun }) : offline(id, unreachable);
      return view.row(obj, wf, now);
    });
    if (opts.output !== 'table') io.stdout(formatStructured(single ? rows[0] : rows, opts.output));
    else if (single) io.stdout(view.detail(rows[0]!));
    else io.stdout(view.table(rows));
  } finally {
    await temporal?.close();
  }
  return 0;
}

function offline(workflowId: string, reason: string | undefined): WorkflowState {
  const note = `${(reason ?? 'Temporal is not reachable').replace(/\.$/, '')}; steps and errors are unknown`;
  return { workflowId, status: 'UNKNOWN', source: 'none', step: undefined, waitingFor: undefined, provider: undefined, phase: undefined, lastError: undefined, note };
}
