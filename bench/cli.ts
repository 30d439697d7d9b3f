// `npm run bench -- --cli [--runs N] [--kubeconfig FILE --temporal-address HOST:PORT]`: how fast the
// `kubeairunway` command answers, beside `kubectl get md` on the same cluster. Each command runs N times
// one after another (after two warm-up calls), as a person or a script calls it: a new process each
// time, through bin/kubeairunway.js (compiled JavaScript). Without --kubeconfig it starts a local stack
// with the controller and three deployments; with one it measures that cluster (e.g. `npm run dev`'s).
// Wall time per call (median, p90, min) and CPU per call (user + system, from this process's
// accounting of its waited-for children).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './measure.ts';

export interface CliTiming {
  label: string;
  command: string;
  medianMs: number;
  p90Ms: number;
  minMs: number;
  cpuMs: number;
}

const repoRoot = new URL('..', import.meta.url).pathname;

/** User + system CPU of this process's waited-for children so far, in ms (/proc/self/stat cutime + cstime). */
function childrenCpuMs(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
  // After the command name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14 here.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / 100;
}

/** One call, asynchronously: the controller of a stack this bench started runs in this process and must answer meanwhile. */
function callOnce(argv: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { cwd: repoRoot, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) reject(new Error(`${argv.join(' ')} failed (exit ${code}): ${stderr}`));
      else resolve(ms);
    });
  });
}

async function timeCommand(label: string, argv: string[], runs: number): Promise<CliTiming> {
  await callOnce(argv);
  await callOnce(argv);
  const cpu0 = childrenCpuMs();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await callOnce(argv));
  const cpuMs = (childrenCpuMs() - cpu0) / runs;
  return { label, command: argv.join(' '), medianMs: percentile(times, 50), p90Ms: percentile(times, 90), minMs: Math.min(...times), cpuMs };
}

export interface CliBenchOptions {
  runs: number;
  kubeconfig?: string;
  temporalAddress?: string;
  log: (line: string) => void;
}

export async function benchCli(opts: CliBenchOptions): Promise<CliTiming[]> {
  let stop = async () => {};
  let kubeconfig = opts.kubeconfig;
  let temporalAddress = opts.temporalAddress ?? '127.0.0.1:7233';
  if (!kubeconfig) {
    opts.log('starting a local stack with the controller and three deployments ...');
    const [{ startStack }, { stackCrdFiles }, { startLocalProduct }] = await Promise.all([
      import('../devstack/stack.ts'),
      import('../devstack/crd-files.ts'),
      import('../devstack/local-product.ts'),
    ]);
    const stateDir = mkdtempSync(join(tmpdir(), 'kubeairunway-bench-cli-'));
    const stack = await startStack({ stateDir, crdFiles: stackCrdFiles(repoRoot) });
    const product = await startLocalProduct(stack, { webhook: false, simulatedReadyAfterMs: 0, settings: { taskQueuePrefix: 'bench-cli' } });
    stop = async () => {
      await product.stop();
      await stack.stop();
      rmSync(stateDir, { recursive: true, force: true });
    };
    kubeconfig = stack.kubeconfigPath;
    temporalAddress = stack.temporalAddress;
    for (const example of ['gpu-vllm-dynamo', 'cpu-gguf-kaito', 'disaggregated-dynamo']) {
      const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', `examples/${example}.yaml`], { cwd: repoRoot, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`kubectl apply ${example}: ${r.stderr}`);
    }
    const deadline = Date.now() + 120_000;
    for (;;) {
      const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, 'get', 'md', '-A', '-o', 'jsonpath={.items[*].status.phase}'], { encoding: 'utf8' });
      if (r.stdout.split(' ').filter((p) => p === 'Running').length === 3) break;
      if (Date.now() > deadline) throw new Error(`the three deployments are not Running after 120 s: ${r.stdout}`);
      await new Promise((res) => setTimeout(res, 500));
    }
  }
  try {
    const kar = [process.execPath, join(repoRoot, 'bin', 'kubeairunway.js')];
    // Compiled once here if the sources changed, so no measured call pays for it.
    spawnSync(process.execPath, [join(repoRoot, 'scripts', 'compile.mjs'), '--quiet'], { stdio: 'inherit' });
    const connection = ['--kubeconfig', kubeconfig, '--temporal-address', temporalAddress];
    opts.log(`timing ${opts.runs} calls of each ...`);
    return [
      await timeCommand('kubectl get md -A', ['kubectl', '--kubeconfig', kubeconfig, 'get', 'md', '-A'], opts.runs),
      await timeCommand('kar status', [...kar, 'status', ...connection], opts.runs),
      await timeCommand('kar status default/llama-8b', [...kar, 'status', 'default/llama-8b', ...connection], opts.runs),
      await timeCommand('kar --help', [...kar, '--help'], opts.runs),
      await timeCommand('kar validate -f (offline)', [...kar, 'validate', '-f', 'examples/gpu-vllm-dynamo.yaml'], opts.runs),
    ];
  } finally {
    await stop();
  }
}

export function formatCliTimings(timings: readonly CliTiming[]): string[] {
  const ms = (n: number) => `${Math.round(n)} ms`.padStart(8);
  return [
    `  ${'command'.padEnd(32)} ${'median'.padStart(8)} ${'p90'.padStart(8)} ${'min'.padStart(8)} ${'CPU/call'.padStart(9)}`,
    ...timings.map((t) => `  ${t.label.padEnd(32)} ${ms(t.medianMs)} ${ms(t.p90Ms)} ${ms(t.minMs)} ${ms(t.cpuMs).padStart(9)}`),
  ];
}
