// `kubeairunway status [NAMESPACE/NAME]`.

import type { CliIO } from '../io.ts';
import type { ExitCode } from '../program.ts';
import { mapLimit } from './command.ts';
import type { KubeOptions, TemporalOptions } from './connection-options.ts';
import { deploymentStatus } from './deployment-status.ts';
import { formatStructured, type OperatorOutput } from './output.ts';
import { listDeployments, openKube, openTarget, openTemporal, requireDeployment } from './session.ts';
import { statusDetail, statusTable } from './status-format.ts';
import { workflowState, type WorkflowState } from './workflow-state.ts';
import { workflowIdFor } from '../../workflows/ids.ts';

export interface StatusOptions extends KubeOptions, TemporalOptions {
  namespace?: string;
  output: OperatorOutput;
}

export async function runStatus(io: CliIO, args: string[], opts: StatusOptions): Promise<ExitCode> {
  const single = args[0] !== undefined;
  const opened = single ? openTarget(args[0]!, opts.namespace, opts) : { kube: openKube(opts), target: undefined };
  const { kube, target } = opened;
  const deployments = target ? [await requireDeployment(kube, target)] : await listDeployments(kube, opts.namespace);
  if (deployments.length === 0) {
    if (opts.output === 'table') {
      io.stderr(`No ModelDeployments found${opts.namespace ? ` in namespace ${opts.namespace}` : ''}.\n`);
      return 0;
    }
  }

  // Without Temporal the cluster's half of the answer is still worth printing; say what is missing.
  let unreachable: string | undefined;
  const temporal = deployments.length > 0 ? await openTemporal(opts, io).catch((err: Error) => void (unreachable = err.message)) : undefined;
  try {
    const now = Date.now();
    const rows = await mapLimit(deployments, 8, async (md) => {
      const id = workflowIdFor({ namespace: md.metadata.namespace ?? '', name: md.metadata.name ?? '', uid: md.metadata.uid ?? '' });
      const wf = temporal ? await workflowState(temporal.client, id) : offline(id, unreachable);
      return deploymentStatus(md, wf, now);
    });
    if (opts.output !== 'table') io.stdout(formatStructured(single ? rows[0] : rows, opts.output));
    else if (single) io.stdout(statusDetail(rows[0]!));
    else io.stdout(statusTable(rows));
  } finally {
    await temporal?.close();
  }
  return 0;
}

function offline(workflowId: string, reason: string | undefined): WorkflowState {
  const note = `${(reason ?? 'Temporal is not reachable').replace(/\.$/, '')}; steps and errors are unknown`;
  return { workflowId, status: 'UNKNOWN', source: 'none', step: undefined, waitingFor: undefined, provider: undefined, phase: undefined, lastError: undefined, note };
}
