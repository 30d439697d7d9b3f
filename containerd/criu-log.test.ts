import { describe, expect, it } from 'vitest';
import { criuErrorLines, criuLogExcerpt, criuLogPath } from './criu-log.ts';

const DUMP = 'runc did not terminate successfully: exit status 1: criu failed: type DUMP errno 0 path= /s/k8s.io/counter/criu-dump.log: unknown';
const RESTORE = 'OCI runtime restore failed: criu failed: type RESTORE errno 0\nlog file: /w/restore.log: unknown';
// The end of a real dump log (Debian 12's CRIU 3.17.1 on kernel 6.18).
const LOG = [
  '(00.018901) Warn  (criu/kerndat.c:1140): CRIU was built without libnftables support',
  '(00.019099) Error (criu/vdso.c:381): vdso: Unexpected rt vDSO area bounds',
  '(00.019101) Error (criu/vdso.c:613): vdso: Failed to fill self vdso symtable',
  '(00.019102) Error (criu/kerndat.c:1615): kerndat_vdso_fill_symtable failed when initializing kerndat.',
  '(00.019200) Unlock network',
].join('\n');

describe('CRIU log', () => {
  it('finds the log a dump or restore failure names', () => {
    expect(criuLogPath(DUMP)).toBe('/s/k8s.io/counter/criu-dump.log');
    expect(criuLogPath(RESTORE)).toBe('/w/restore.log');
    expect(criuLogPath('task must be running')).toBeUndefined();
  });

  it('keeps the error lines, the last ones when there are many', () => {
    expect(criuErrorLines(LOG)).toEqual([
      '(00.019099) Error (criu/vdso.c:381): vdso: Unexpected rt vDSO area bounds',
      '(00.019101) Error (criu/vdso.c:613): vdso: Failed to fill self vdso symtable',
      '(00.019102) Error (criu/kerndat.c:1615): kerndat_vdso_fill_symtable failed when initializing kerndat.',
    ]);
    expect(criuErrorLines(LOG, 1)).toHaveLength(1);
  });

  it('quotes the log when it can be read, and the message when not', () => {
    expect(criuLogExcerpt(DUMP, (p) => (p === '/s/k8s.io/counter/criu-dump.log' ? LOG : ''))).toMatch(/^\(00\.019099\) Error .*\n.*\n.*kerndat\.$/);
    expect(
      criuLogExcerpt(DUMP, () => {
        throw new Error('ENOENT');
      }),
    ).toBe(DUMP);
    expect(criuLogExcerpt(DUMP, () => 'no errors here')).toBe(DUMP);
    expect(criuLogExcerpt('no path')).toBe('no path');
  });
});
