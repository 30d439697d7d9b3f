// KAITO Workspace status → unified status (seed 001 §4.9, seed 000 "Status Mapping"):
//   WorkspaceSucceeded: True  → Running
//   error condition           → Failed, message from the condition
//   InferenceReady: False     → Deploying, message from the condition
// "Error condition" is WorkspaceSucceeded: False (seed 001 §3.13) or any False condition whose reason
// says it failed or errored. Precedence follows the table: success, then error, then progress. With no
// decisive condition the Workspace exists and KAITO is still working on it, so the phase is Deploying,
// with the message of the first False condition when there is one.

import type { UnifiedStatus } from '../contract.ts';
import { conditions, count, field, findCondition, str } from '../shared/read.ts';
import type { UpstreamCondition } from '../shared/read.ts';
import { unifiedStatus } from '../shared/unified-status.ts';
import { KAITO_RESOURCE } from './config.ts';
import { WORKSPACE_SERVICE_PORT } from './defaults.ts';

const ERROR_REASON = /fail|error/i;

export function mapKaitoStatus(upstream: unknown): UnifiedStatus {
  const name = str(field(upstream, 'metadata', 'name'));
  if (upstream === undefined || upstream === null) {
    return unifiedStatus('Pending', `${KAITO_RESOURCE.kind} not created yet`, { desired: 0, ready: 0 }, undefined);
  }
  const desired = count(field(upstream, 'resource', 'count')) ?? 1;
  const endpoint = name ? { service: name, port: WORKSPACE_SERVICE_PORT } : undefined;
  const all = conditions(upstream);

  const succeeded = findCondition(all, 'WorkspaceSucceeded');
  if (succeeded?.status === 'True') {
    return unifiedStatus('Running', undefined, { desired, ready: desired, available: desired }, endpoint);
  }
  const failure = succeeded?.status === 'False' ? succeeded : all.find(isErrorCondition);
  if (failure) {
    return unifiedStatus('Failed', failure.message ?? describe(failure), { desired, ready: 0, available: 0 }, endpoint);
  }
  const inference = findCondition(all, 'InferenceReady');
  const waiting = inference?.status === 'False' ? inference : all.find((c) => c.status === 'False');
  const message = waiting ? (waiting.message ?? describe(waiting)) : `Waiting for ${KAITO_RESOURCE.kind} to become ready`;
  return unifiedStatus('Deploying', message, { desired, ready: 0, available: 0 }, endpoint);
}

function isErrorCondition(c: UpstreamCondition): boolean {
  return c.status === 'False' && c.reason !== undefined && ERROR_REASON.test(c.reason);
}

function describe(c: UpstreamCondition): string {
  return c.reason ? `${c.type}: ${c.reason}` : `${c.type} is ${c.status}`;
}
