import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeAbandonedCopies } from './maven-tool.ts';

const cache = mkdtempSync(join(tmpdir(), 'maven-tool-test-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

describe('removeAbandonedCopies', () => {
  it("removes the copies a killed fetch left (over an hour old), keeps a running fetch's and anything else", () => {
    const dir = join(cache, 'temporal-test-server-1.31.0');
    const now = Date.now();
    const make = (name: string, ageMs: number) => {
      const path = join(cache, name);
      mkdirSync(path);
      writeFileSync(join(path, 'a.jar'), '');
      utimesSync(path, (now - ageMs) / 1000, (now - ageMs) / 1000);
      return path;
    };
    const abandoned = make('temporal-test-server-1.31.0.partial-AbC123', 2 * 3_600_000);
    make('temporal-test-server-1.31.0.partial-XyZ789', 60_000);
    make('temporal-test-server-1.30.0.partial-Old111', 5 * 3_600_000);
    make('temporal-test-server-1.31.0', 5 * 3_600_000);
    expect(removeAbandonedCopies(dir, now)).toEqual([abandoned]);
    expect(removeAbandonedCopies(join(cache, 'missing', 'x-1'), now)).toEqual([]);
  });
});
