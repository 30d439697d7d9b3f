#!/usr/bin/env node
// The `kubeairunway` command. It always runs compiled JavaScript (dist/): loading TypeScript through tsx
// costs about a second per call. In a checkout (the sources are here) dist/ is first brought up to date
// with them (scripts/compile.mjs: a few milliseconds when nothing changed, the changed files otherwise),
// so an edit takes effect at once and a stale dist/ never shadows it. In the image (no sources, no
// TypeScript) dist/ is what `npm run build` made.

import { existsSync } from 'node:fs';

const here = (path) => new URL(path, import.meta.url);

if (existsSync(here('../cli/main.ts')) && existsSync(here('../scripts/compile.mjs'))) {
  const { compileChanged } = await import(here('../scripts/compile.mjs').href);
  try {
    await compileChanged();
  } catch (err) {
    const missing = err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes("'typescript'");
    process.stderr.write(`kubeairunway: ${missing ? 'the sources changed and TypeScript is not installed to compile them (`npm install`)' : err.message}\n`);
    process.exit(1);
  }
}

const compiled = here('../dist/cli/main.js');
try {
  await import(compiled.href);
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && err.url === compiled.href) {
    process.stderr.write('kubeairunway: no build here: run `npm run build` (or, in a checkout, `node scripts/setup.mjs`).\n');
    process.exit(1);
  }
  throw err;
}
