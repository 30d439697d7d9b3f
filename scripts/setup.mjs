#!/usr/bin/env node
// First step of the README's commands on a fresh clone: install npm dependencies when they are missing
// or stale, then build (or find) the local stack's Go binaries. Plain JavaScript: nothing is installed yet.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (line) => process.stdout.write(`[setup] ${line}\n`);

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`[setup] \`${cmd} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(`[setup] Node ${process.versions.node} is too old: kubeairunway needs Node >= 20.19.\n`);
  process.exit(1);
}

const installed = join(root, 'node_modules', '.package-lock.json');
const lock = join(root, 'package-lock.json');
if (!existsSync(installed) || statSync(lock).mtimeMs > statSync(installed).mtimeMs) {
  // `npm install`, not `npm ci`: the lock file cannot list platform packages a registry mirror lacks
  // (e.g. @swc/core's macOS builds), and `npm ci` refuses such a lock; `npm install` follows it anyway.
  say('installing npm dependencies (npm install) ...');
  run('npm', ['install', '--no-audit', '--no-fund']);
} else {
  say('npm dependencies up to date');
}

if (!process.argv.includes('--no-tools')) {
  say('checking local-stack binaries (a first build takes several minutes; later runs reuse the cache) ...');
  run(join(root, 'node_modules', '.bin', 'tsx'), ['tools/build.ts']);
}
