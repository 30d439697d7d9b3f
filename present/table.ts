// Aligned plain-text tables for the terminal, the way kubectl prints them: upper-case headers, columns
// separated by three spaces, no borders, "<none>" for an empty cell.

export interface Column<Row> {
  header: string;
  value: (row: Row) => string | number | null | undefined;
  /** Longer cells are cut with an ellipsis (full text stays in -o json/yaml). */
  maxWidth?: number;
  /** Shown for an empty cell (default `<none>`, as kubectl). */
  empty?: string;
}

const GAP = '   ';
const EMPTY = '<none>';

export function cell(value: string | number | null | undefined, maxWidth?: number, empty = EMPTY): string {
  const text = value === null || value === undefined || value === '' ? empty : String(value).replace(/\s*\n\s*/g, ' ');
  return maxWidth !== undefined && text.length > maxWidth ? `${text.slice(0, Math.max(1, maxWidth - 1))}…` : text;
}

export function formatTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string {
  const cells = rows.map((row) => columns.map((c) => cell(c.value(row), c.maxWidth, c.empty)));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => r[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i]!)))
      .join(GAP)
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].map((l) => `${l}\n`).join('');
}
