// `npm run chaos [-- --deployments N] [-- --minutes M] [-- --seed S]`: the long chaos run (hundreds of
// deployments, several minutes of random SIGKILLs of every part), printing what it did and, as its last
// line, the six figures that must all be 0. The suite runs a shortened one (test/chaos/chaos.test.ts).
import { runChaos } from '../test/chaos/chaos-run.ts';
import { chaosReportLines } from '../test/chaos/report.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const seed = arg('--seed', Date.now() % 1_000_000);
console.log(`chaos run, seed ${seed} (repeat it with --seed ${seed})`);
const report = await runChaos({
  initial: arg('--deployments', 200),
  durationMs: arg('--minutes', 5) * 60_000,
  killEveryMs: 5_000,
  seed,
  log: (line) => console.log(line),
});
for (const line of chaosReportLines(report)) console.log(line);
const bad = report.deploymentsLost + report.duplicatedProviderResources + report.orphanedProviderResources + report.deploymentsNotConverged + report.deletionsPastDeadline + report.workflowsFailed;
process.exit(bad === 0 ? 0 : 1);
