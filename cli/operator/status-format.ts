// How `kubeairunway status` prints: a table for several deployments, a block of fields for one.

import { formatTable, type Column } from './table.ts';
import { errorText, readyText, stepText, type DeploymentStatus } from './deployment-status.ts';

const COLUMNS: Column<DeploymentStatus>[] = [
  { header: 'NAMESPACE', value: (s) => s.namespace },
  { header: 'NAME', value: (s) => s.name },
  { header: 'PHASE', value: (s) => (s.paused ? `${s.phase ?? 'Pending'} (paused)` : s.phase) },
  { header: 'PROVIDER', value: (s) => s.provider },
  { header: 'READY', value: readyText },
  { header: 'STEP', value: stepText },
  { header: 'AGE', value: (s) => s.age },
  { header: 'LAST ERROR', value: errorText, maxWidth: 80 },
];

export function statusTable(rows: readonly DeploymentStatus[]): string {
  const table = formatTable(COLUMNS, rows);
  // A fallback to the memo is said once under the table, not per row.
  const notes = [...new Set(rows.map((r) => r.workflow.note).filter((n): n is string => Boolean(n)))];
  return table + notes.map((n) => `note: ${n}\n`).join('');
}

export function statusDetail(s: DeploymentStatus): string {
  const lines: [string, string | null][] = [
    ['Name', `${s.namespace}/${s.name}`],
    ['Phase', s.phase ? `${s.phase}${s.paused ? ' (reconciliation paused)' : ''}${s.deleting ? ' (being deleted)' : ''}` : null],
    ['Message', s.message],
    ['Provider', s.provider],
    ['Ready', readyText(s)],
    ['Step', s.step],
    ['Waiting for', s.waitingFor],
    ['Last error', s.lastError ? `${errorText(s)}${s.lastError.step ? ` (step ${s.lastError.step}${s.lastError.at ? `, ${s.lastError.at}` : ''})` : ''}` : null],
    ['Age', s.age],
    ['Workflow', `${s.workflow.id} (${s.workflow.status.toLowerCase().replace(/_/g, ' ')})`],
  ];
  const width = Math.max(...lines.map(([k]) => k.length)) + 2;
  const body = lines
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${`${k}:`.padEnd(width)}${v}\n`)
    .join('');
  return body + (s.workflow.note ? `note: ${s.workflow.note}\n` : '');
}
