#!/usr/bin/env node
// `npm test` after setup: three vitest runs side by side. The integration files, one at a time against their
// one shared stack; the files that start everything they test themselves (`stacks`: the cluster files,
// chaos, the dev command's), one at a time; and the unit files, then the workflow files (their own Temporal
// server, their own task queues), one worker each. One vitest run cannot do this: projects that run
// together share one worker count. The stacks mostly wait on servers and timers, so two cores carry them
// at once (one run after another took 36 minutes, side by side about 19). The private Docker engine the
// files share is held by this runner for the whole run (scripts/hold-docker-engine.ts), so a file that
// ends never stops it under one still running.
//
// With arguments (`npm test -- <files or vitest flags>`) it is plain `vitest run <arguments>`.
// Each run writes its JSON report; they are merged into .vitest-results.json (what .ci/run reads), or
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

/**
 * The private Docker engine held for the whole run by scripts/hold-docker-engine.ts: the test files of the
 * runs side by side join it, and none stops it under another. `ready` resolves once it answers (or the
 * holder said why it cannot: the files then skip as they would alone); `release` stops it, bounded.
 */
function holdDockerEngine() {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'hold-docker-engine.ts')], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.on('close', resolve));
  // A holder that exited at once (no engine here) has closed its end: closing ours then is no error.
  child.stdin.on('error', () => undefined);
  const ready = new Promise((resolve) => {
    const bound = setTimeout(() => {
      process.stdout.write('[docker] not ready in 120 s: each test file starts or joins the engine itself\n');
      resolve();
    }, 120_000);
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        process.stdout.write(`[docker] ${line}\n`);
        if (line === 'ready' || line.startsWith('unavailable:')) {
          clearTimeout(bound);
          resolve();
        }
      });
    }
    exited.then(() => {
      clearTimeout(bound);
      resolve();
    });
  });
  let released;
  const release = () =>
    (released ??= (async () => {
      child.stdin.end();
      const bound = new Promise((resolve) => setTimeout(() => resolve('timeout'), 60_000));
      if ((await Promise.race([exited, bound])) === 'timeout') {
        process.stdout.write('[docker] the engine did not stop in 60 s: killing its holder (the next start stops the engine)\n');
        child.kill('SIGKILL');
      }
    })());
  return { ready, release };
}

const args = process.argv.slice(2);
if (args.length > 0) {
  const own = join(PARTS, 'run.json');
  const code = await runVitest(args, own);
  if (existsSync(own)) publishReport(readFileSync(own));
  finish(code);
}

const reports = ['unit', 'workflows', 'integration', 'stacks'].map((p) => join(PARTS, `${p}.json`));
rmSync(REPORT, { force: true });
const engine = holdDockerEngine();
await engine.ready;
process.stdout.write('[test] beside the integration files: the unit files, then the workflow files ([unit], [workflows]), and the files that start stacks of their own ([stacks])\n');
/** The unit files (one worker: the stacks start meanwhile), then the workflow files, unless Ctrl-C came between. */
async function unitThenWorkflows() {
  const unit = await runVitest(['--project', 'unit', '--maxWorkers=1'], reports[0], '[unit]');
  const workflows = interrupted ? 130 : await runVitest(['--project', 'workflows', '--maxWorkers=1'], reports[1], '[workflows]');
  return [unit, workflows];
}
const [[unit, workflows], integration, stacks] = await Promise.all([
  unitThenWorkflows(),
  runVitest(['--project', 'integration'], reports[2]),
  runVitest(['--project', 'stacks'], reports[3], '[stacks]'),
]);
await engine.release();
publishReport(JSON.stringify(mergeReports(reports)));
const failed = Object.entries({ unit, workflows, integration, stacks }).filter(([, code]) => code !== 0);
if (failed.length > 0) process.stdout.write(`[test] failed: ${failed.map(([p, code]) => `${p} (exit ${code})`).join(', ')}\n`);
finish(failed.length > 0 ? 1 : 0);
