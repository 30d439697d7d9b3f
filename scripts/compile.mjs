// Keeps dist/ in step with the TypeScript sources of a checkout, so the `kubeairunway` command runs
// compiled JavaScript (no tsx: about a second less per call) and never a stale build. Each source file
// is transpiled on its own (TypeScript's transpileModule with the build's options: no type check, which
// is `npm run typecheck`'s job), and only those that changed since the last run, by size and mtime
// recorded in dist/.compiled.json. The first run (setup does it) takes a few seconds; a run with nothing
// changed only stats the files, a few milliseconds. Plain JavaScript: bin/kubeairunway.js and setup run
// it without tsx.
//
// `npm run build` (scripts/build.ts) remains the production build: full tsc with type checking and the
// prebuilt workflow bundle. A recompile here removes that bundle, which may no longer match the sources;
// the core worker then bundles its workflows at start, as it does from the sources.
//
//   node scripts/compile.mjs [--quiet]

import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = '.compiled.json';
/** Bump when the options or the manifest's meaning change: everything is compiled again. */
const FORMAT = 3;

/** The runtime folders and exclusions of tsconfig.build.json, read once (it is the one list). */
function buildConfig(root) {
  const config = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8'));
  return { include: config.include, outDir: join(root, config.compilerOptions.outDir ?? 'dist') };
}

const EXCLUDED_DIRS = new Set(['node_modules', 'dist', 'testing', '__histories__', '__golden__', '__snapshots__']);

function isSource(name) {
  return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts');
}

/** Every source file under the include folders: relative path → "size:mtimeMs". */
function sourceFiles(root, include) {
  const files = new Map();
  // Plain string paths (not path.join): this runs before every CLI call, over a few hundred files.
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(`${root}/${dir}`, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) {
        if (!EXCLUDED_DIRS.has(e.name)) walk(rel);
      } else if (isSource(e.name)) {
        const st = statSync(`${root}/${rel}`);
        files.set(rel, `${st.size}:${st.mtimeMs}`);
      }
    }
  };
  for (const dir of include) walk(dir);
  return files;
}

function readManifest(outDir) {
  try {
    const m = JSON.parse(readFileSync(join(outDir, MANIFEST), 'utf8'));
    return m.format === FORMAT ? new Map(Object.entries(m.files)) : new Map();
  } catch {
    return new Map();
  }
}

const jsPath = (rel) => rel.replace(/\.ts$/, '.js');

/** What must change in dist/ for it to match the sources: files to compile and outputs to remove. */
export function staleness(root = ROOT) {
  const { include, outDir } = buildConfig(root);
  const sources = sourceFiles(root, include);
  const compiled = readManifest(outDir);
  // The manifest is trusted for the outputs it lists (checking each one's existence cost a call 15 ms);
  // `npm run build` removes dist/ with the manifest in it.
  const changed = [...sources].filter(([rel, stamp]) => compiled.get(rel) !== stamp).map(([rel]) => rel);
  const removed = [...compiled.keys()].filter((rel) => !sources.has(rel));
  return { root, outDir, sources, changed, removed };
}

/**
 * Brings dist/ up to date with the sources; returns how many files it compiled. Syntax errors are
 * reported through `warn`, naming file and line. Concurrent runs are harmless: every file is written to a temporary name and
 * renamed into place, and the manifest last.
 */
export async function compileChanged({ root = ROOT, log = () => {}, warn = (text) => process.stderr.write(`${text}\n`) } = {}) {
  const state = staleness(root);
  if (state.changed.length === 0 && state.removed.length === 0) return 0;
  const t0 = Date.now();
  const ts = (await import('typescript')).default;
  const options = {
    target: ts.ScriptTarget.ES2022,
    // ES modules (package.json's "type": "module"); NodeNext would need the package type, which
    // transpileModule does not look up, and emit CommonJS.
    module: ts.ModuleKind.ES2022,
    rewriteRelativeImportExtensions: true,
    esModuleInterop: true,
    sourceMap: false,
  };
  const errors = [];
  const broken = new Set();
  for (const rel of state.changed) {
    const file = join(root, rel);
    const out = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions: options, fileName: file, reportDiagnostics: true });
    for (const d of out.diagnostics ?? []) {
      const where = d.file && d.start !== undefined ? `:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}` : '';
      errors.push(`${rel}${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      broken.add(rel);
    }
    const target = join(state.outDir, jsPath(rel));
    mkdirSync(dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    writeFileSync(tmp, out.outputText);
    renameSync(tmp, target);
  }
  // A file with syntax errors is written anyway (a command that imports it fails there, naming it; the
  // others run) and is not recorded, so the next call compiles it again. Said on stderr, every call.
  if (errors.length > 0) warn(`cannot compile ${broken.size} source file(s):\n${errors.slice(0, 20).join('\n')}${errors.length > 20 ? `\n… and ${errors.length - 20} more` : ''}`);
  for (const rel of broken) state.sources.delete(rel);
  for (const rel of state.removed) rmSync(join(state.outDir, jsPath(rel)), { force: true });
  // The prebuilt workflow bundle of `npm run build` may not match the sources any more.
  rmSync(join(state.outDir, 'workflow-bundle.js'), { force: true });
  // tsc copies no .proto files either: the containerd client loads its own from beside its code.
  copyTree(join(root, 'containerd', 'proto'), join(state.outDir, 'containerd', 'proto'));
  const manifest = join(state.outDir, MANIFEST);
  writeFileSync(`${manifest}.${process.pid}.tmp`, JSON.stringify({ format: FORMAT, files: Object.fromEntries(state.sources) }));
  renameSync(`${manifest}.${process.pid}.tmp`, manifest);
  log(`compiled ${state.changed.length} of ${state.sources.size} source files to ${relative(root, state.outDir)}/ in ${((Date.now() - t0) / 1000).toFixed(1)}s`);
  return state.changed.length;
}

function copyTree(from, to) {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    if (e.isDirectory()) copyTree(join(from, e.name), join(to, e.name));
    else writeFileSync(join(to, e.name), readFileSync(join(from, e.name)));
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const quiet = process.argv.includes('--quiet');
  try {
    const n = await compileChanged({ log: (line) => process.stdout.write(`${line}\n`) });
    if (n === 0 && !quiet) process.stdout.write('dist/ is up to date with the sources\n');
  } catch (err) {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}
