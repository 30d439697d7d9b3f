#!/usr/bin/env node
// `npm test` after setup: the unit files first (CPU-bound, two at a time), then the workflow files beside the
// integration files, in two vitest runs side by side. One vitest run cannot do the last part: projects that
// run together share one worker count, and the integration files must run one at a time against their one
// cluster while the workflow files need nothing of it (their own Temporal server, their own task queues).
// Both mostly wait on servers and timers, so two cores carry them at once.
//
// With arguments (`npm test -- <files or vitest flags>`) it is plain `vitest run <arguments>`.
// Each run writes its JSON report; the three are merged into .vitest-results.json (what .ci/run reads), or
// into $KUBEAIRUNWAY_VITEST_REPORT when that is set. Two `npm test` in one checkout at once must not mix
// their reports: each run's partial reports live in a folder of its own, and the merged one is written
// under a temporary name and renamed into place, so a reader sees one whole run's report, never a blend.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const vitest = join(root, 'node_modules', '.bin', 'vitest');
const REPORT = process.env.KUBEAIRUNWAY_VITEST_REPORT || join(root, '.vitest-results.json');
/** This run's own folder for the partial reports. */
const PARTS = mkdtempSync(join(tmpdir(), 'kubeairunway-vitest-'));

/** Runs vitest with `args`, its JSON report to `report`; output as is, or each line prefixed. Resolves to the exit code. */
function runVitest(args, report, prefix) {
  return new Promise((resolve) => {
    const child = spawn(vitest, ['run', ...args], {
      cwd: root,
      env: { ...process.env, KUBEAIRUNWAY_VITEST_REPORT: report },
      stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (prefix) {
      for (const stream of [child.stdout, child.stderr]) {
        createInterface({ input: stream }).on('line', (line) => process.stdout.write(`${prefix} ${line}\n`));
      }
    }
    child.on('error', (err) => {
      process.stderr.write(`[test] could not start vitest: ${err.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The runs' JSON reports as one: counts summed, test files listed together. */
function mergeReports(files) {
  const reports = files.filter((f) => existsSync(f)).map((f) => JSON.parse(readFileSync(f, 'utf8')));
  const sum = (key) => reports.reduce((n, r) => n + (r[key] ?? 0), 0);
  const keys = ['numTotalTestSuites', 'numPassedTestSuites', 'numFailedTestSuites', 'numPendingTestSuites', 'numTotalTests', 'numPassedTests', 'numFailedTests', 'numPendingTests', 'numTodoTests'];
  return {
    ...Object.fromEntries(keys.map((k) => [k, sum(k)])),
    startTime: Math.min(...reports.map((r) => r.startTime)),
    success: reports.length === files.length && reports.every((r) => r.success),
    testResults: reports.flatMap((r) => r.testResults ?? []),
  };
}

// Ctrl-C reaches the vitest runs too (one process group): wait for them to stop their stacks, start no
// further run, then exit.
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
});

/** Puts `body` at REPORT in one step (a temporary name beside it, then a rename). */
function publishReport(body) {
  const temporary = `${REPORT}.${process.pid}.tmp`;
  writeFileSync(temporary, body);
  renameSync(temporary, REPORT);
}

/** Exits with `code` once this run's folder is gone. */
function finish(code) {
  rmSync(PARTS, { recursive: true, force: true });
  process.exit(code);
}

const args = process.argv.slice(2);
if (args.length > 0) {
  const own = join(PARTS, 'run.json');
  const code = await runVitest(args, own);
  if (existsSync(own)) publishReport(readFileSync(own));
  finish(code);
}

const reports = ['unit', 'workflows', 'integration'].map((p) => join(PARTS, `${p}.json`));
rmSync(REPORT, { force: true });
const unit = await runVitest(['--project', 'unit'], reports[0]);
if (interrupted) finish(130);
process.stdout.write('[test] the workflow files (lines prefixed [workflows]) run beside the integration files\n');
const [workflows, integration] = await Promise.all([
  runVitest(['--project', 'workflows', '--maxWorkers=1'], reports[1], '[workflows]'),
  runVitest(['--project', 'integration'], reports[2]),
]);
publishReport(JSON.stringify(mergeReports(reports)));
const failed = Object.entries({ unit, workflows, integration }).filter(([, code]) => code !== 0);
if (failed.length > 0) process.stdout.write(`[test] failed: ${failed.map(([p, code]) => `${p} (exit ${code})`).join(', ')}\n`);
finish(failed.length > 0 ? 1 : 0);
