// `npm run bench [-- --deployments N] [-- --pure-only]` (`-- --help` lists every flag, bench/flags.ts): the pure core's throughput and an end-to-end run
// on a fresh local stack. `npm run bench -- --versus-peer <dir> [--quick] [--singles N] [--bursts 100,300]`:
// ours beside a peer controller the user already built instead (bench/versus/versus.ts; the directory may
// also come from KUBEAIRUNWAY_BENCH_PEER_DIR; `--versus-reference` is the flag's former name);
// `--ours-only` runs that bench with ours alone. Figures on a shared 2-core machine vary by ±20% from run
// to run; compare ratios between runs on the same machine rather than absolute numbers.
import { cpus } from 'node:os';
import { PEER_DIR_FLAG, PeerDirError, peerDirArgument } from './versus/peer-dir.ts';
import { benchRequest, benchUsage } from './flags.ts';

const request = benchRequest(process.argv.slice(2));
if ('error' in request) {
  console.error(request.error);
  process.exit(2);
}
if (request.help) {
  console.log(benchUsage());
  process.exit(0);
}

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

console.log(`machine: ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`);

// `npm run bench -- --cli [--runs N] [--kubeconfig FILE --temporal-address HOST:PORT]`: CLI response times beside kubectl (bench/cli.ts).
if (process.argv.includes('--cli')) {
  const { benchCli, formatCliTimings } = await import('./cli.ts');
  const timings = await benchCli({ runs: Number(arg('--runs') ?? 15), kubeconfig: arg('--kubeconfig'), temporalAddress: arg('--temporal-address'), log: (line) => console.log(line) });
  for (const line of formatCliTimings(timings)) console.log(line);
  process.exit(0);
}

const versusFlags = [PEER_DIR_FLAG, '--versus-reference', '--ours-only'];
if (versusFlags.some((flag) => process.argv.includes(flag))) {
  // Each bench's code (the product, the local stack) is loaded only when that bench runs: --help and a
  // flag mistake answer at once.
  const { benchVersus } = await import('./versus/versus.ts');
  const { lines, ok } = await benchVersus({
    repoRoot: new URL('..', import.meta.url).pathname,
    quick: process.argv.includes('--quick'),
    singles: Number(arg('--singles') ?? 20),
    bursts: arg('--bursts')?.split(',').map(Number),
    peerDir: peerDirArgument(process.argv, process.env),
    oursOnly: process.argv.includes('--ours-only'),
    log: (line) => console.log(line),
  }).catch((err: unknown) => {
    // A peer directory without the documented layout: say which file, no stack trace.
    if (err instanceof PeerDirError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  });
  // The ratio line is the last line printed; a controller that stopped early fails the run.
  for (const line of lines) console.log(line);
  process.exit(ok ? 0 : 1);
}
const [{ benchPure }, { benchE2e }] = await Promise.all([import('./pure.ts'), import('./e2e.ts')]);
console.log('\npure core (operations per second):');
for (const [name, ops] of Object.entries(benchPure())) console.log(`  ${name.padEnd(42)} ${Math.round(ops).toLocaleString('en-US').padStart(10)}`);

if (!process.argv.includes('--pure-only')) {
  for (const count of (arg('--deployments') ?? '1,20').split(',').map(Number)) {
    const r = await benchE2e(count);
    console.log(`\nend to end, ${count} deployment(s) created at once (simulated operators report ready at once):`);
    console.log(`  all Running after            ${r.allRunningSeconds.toFixed(1)} s (per deployment p50 ${r.runningP50Seconds.toFixed(1)} s, p95 ${r.runningP95Seconds.toFixed(1)} s)`);
    console.log(`  all deleted after            ${r.allDeletedSeconds.toFixed(1)} s`);
    console.log(`  workflow history             ${r.historyEventsPerDeployment} events per deployment (create → Running)`);
    console.log(`  controller process memory    peak RSS ${r.rssPeakMiB} MiB, heap ${r.heapUsedMiB} MiB (includes the bench itself)`);
  }
}
process.exit(0);
