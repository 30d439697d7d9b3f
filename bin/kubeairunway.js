#!/usr/bin/env node
// The `kubeairunway` command. Where tsx is installed (a checkout with its dev dependencies) the TypeScript
// sources run through it, so an edit takes effect at once and a stale dist/ never shadows it. Where it is
// not (the image: production dependencies only) the JavaScript compiled by `npm run build` runs.

async function loadTsx() {
  try {
    return await import('tsx/esm/api');
  } catch (err) {
    if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes("'tsx'")) return undefined;
    throw err;
  }
}

const tsx = await loadTsx();
if (tsx) {
  tsx.register();
  await import('../cli/main.ts');
} else {
  const compiled = new URL('../dist/cli/main.js', import.meta.url);
  try {
    await import(compiled.href);
  } catch (err) {
    if (err?.code === 'ERR_MODULE_NOT_FOUND' && err.url === compiled.href) {
      process.stderr.write('kubeairunway: neither tsx (`npm install`, for the sources) nor a build (`npm run build`, for dist/) is here.\n');
      process.exit(1);
    }
    throw err;
  }
}
