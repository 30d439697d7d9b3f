import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { formatAge, formatDuration } from '../../present/durations.ts';
import { parseDuration } from '../../workflows/engine/durations.ts';
import { formatStructured } from './output.ts';
import { cell, formatTable } from '../../present/table.ts';

describe('formatTable', () => {
  const columns = [
    { header: 'NAME', value: (r: { name: string; phase?: string }) => r.name },
    { header: 'PHASE', value: (r: { name: string; phase?: string }) => r.phase },
  ];

  it('aligns columns under upper-case headers, three spaces apart, without trailing blanks', () => {
    expect(formatTable(columns, [{ name: 'llama-8b', phase: 'Running' }, { name: 'x', phase: 'Pending' }])).toBe(
      'NAME       PHASE\nllama-8b   Running\nx          Pending\n',
    );
  });

  it('prints <none> for empty cells and only the header for no rows', () => {
    expect(formatTable(columns, [{ name: 'a' }])).toBe('NAME   PHASE\na      <none>\n');
    expect(formatTable(columns, [])).toBe('NAME   PHASE\n');
  });

  it('cuts long cells with an ellipsis and folds newlines', () => {
    expect(cell('abcdefghij', 5)).toBe('abcd…');
    expect(cell('one\n  two')).toBe('one two');
    expect(cell(0)).toBe('0');
  });
});

describe('formatStructured', () => {
  const value = { name: 'x', error: null, gone: undefined, replicas: { ready: 1 } };

  it('prints JSON with two-space indent and drops undefined fields', () => {
    expect(formatStructured(value, 'json')).toBe('{\n  "name": "x",\n  "error": null,\n  "replicas": {\n    "ready": 1\n  }\n}\n');
  });

  it('prints YAML that parses back to the same value', () => {
    const text = formatStructured(value, 'yaml');
    expect(parse(text)).toEqual({ name: 'x', error: null, replicas: { ready: 1 } });
    expect(text).not.toContain('gone');
  });
});

describe('durations', () => {
  it('formats ages like kubectl', () => {
    const s = 1000;
    const m = 60 * s;
    const h = 60 * m;
    const d = 24 * h;
    expect(formatAge(5 * s)).toBe('5s');
    expect(formatAge(119 * s)).toBe('119s');
    expect(formatAge(5 * m + 3 * s)).toBe('5m3s');
    expect(formatAge(45 * m)).toBe('45m');
    expect(formatAge(5 * h + 20 * m)).toBe('5h20m');
    expect(formatAge(30 * h)).toBe('30h');
    expect(formatAge(3 * d + 4 * h)).toBe('3d4h');
    expect(formatAge(100 * d)).toBe('100d');
    expect(formatAge(-5)).toBe('0s');
  });

  it('formats step durations with useful precision', () => {
    expect(formatDuration(85)).toBe('85ms');
    expect(formatDuration(1234)).toBe('1.2s');
    expect(formatDuration(42_000)).toBe('42s');
    expect(formatDuration(125_000)).toBe('2m05s');
    expect(formatDuration(3_725_000)).toBe('1h02m');
  });

  it('parses the duration flags', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('soon')).toBeUndefined();
    expect(parseDuration('5')).toBeUndefined();
  });
});
