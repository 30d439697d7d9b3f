// How `kubeairunway status` prints, for any kind: a table for several objects, a block of fields for
// one. Each kind says which columns and fields (a StatusView); the layout and the notes are shared.

import type { AnyObject } from '../kube/custom-objects.ts';
import { formatTable, type Column } from './table.ts';
import type { WorkflowState } from './workflow-state.ts';

/** What every status row has: the note says once why the workflow's half of the answer is partial. */
export interface StatusRow {
  workflow: { note: string | null };
}

/** A field of the detail block; empty ones are left out. */
export type DetailField = [label: string, value: string | null];

/** One kind's status: its row from the object and its workflow, and how rows print. */
export interface StatusView {
  row(obj: AnyObject, wf: WorkflowState | undefined, now: number): StatusRow;
  table(rows: readonly StatusRow[]): string;
  detail(row: StatusRow): string;
}

/** A StatusView from a kind's typed row, columns and detail fields. */
export function statusView<Row extends StatusRow>(spec: {
  row(obj: AnyObject, wf: WorkflowState | undefined, now: number): Row;
  columns: readonly Column<Row>[];
  fields(row: Row): DetailField[];
}): StatusView {
  return {
    row: spec.row,
    // Rows reach table and detail only from this view's own `row`.
    table: (rows) => statusTable(spec.columns, rows as readonly Row[]),
    detail: (row) => statusDetail(spec.fields(row as Row), row.workflow.note),
  };
}

export function statusTable<Row extends StatusRow>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const table = formatTable(columns, rows);
  // A fallback to the memo is said once under the table, not per row.
  const notes = [...new Set(rows.map((r) => r.workflow.note).filter((n): n is string => Boolean(n)))];
  return table + notes.map((n) => `note: ${n}\n`).join('');
}

export function statusDetail(fields: readonly DetailField[], note: string | null): string {
  const width = Math.max(...fields.map(([k]) => k.length)) + 2;
  const body = fields
    .filter(([, v]) => v !== null && v !== '')
    .map(([k, v]) => `${`${k}:`.padEnd(width)}${v}\n`)
    .join('');
  return body + (note ? `note: ${note}\n` : '');
}
