// The flags `npm run bench` takes, declared once: `--help` prints them instead of running a benchmark
// (a benchmark starts a stack and takes minutes), and a flag not among them is refused before anything
// starts, so a misspelt `--quik` does not cost a full run.

interface BenchFlag {
  name: string;
  /** The value's placeholder; absent for a switch. A value in [brackets] may be left out. */
  value?: string;
  help: string;
}

export const BENCH_FLAGS: readonly BenchFlag[] = [
  { name: '--help', help: 'print these flags and exit' },
  { name: '--pure-only', help: "the pure core's throughput only, no stack" },
  { name: '--deployments', value: 'N[,N…]', help: 'end-to-end run sizes (default 1,20)' },
  { name: '--cli', help: 'CLI response times beside kubectl (kar status, kar --help, kubectl get md)' },
  { name: '--runs', value: 'N', help: 'with --cli: runs per command (default 15)' },
  { name: '--kubeconfig', value: 'FILE', help: "with --cli: an existing stack's kubeconfig instead of a fresh stack" },
  { name: '--temporal-address', value: 'HOST:PORT', help: "with --cli: that stack's Temporal frontend" },
  { name: '--versus-peer', value: '[DIR]', help: 'side by side with a peer controller you built (DIR or KUBEAIRUNWAY_BENCH_PEER_DIR)' },
  { name: '--versus-reference', value: '[DIR]', help: "--versus-peer's former name" },
  { name: '--ours-only', help: 'the side-by-side bench with ours alone' },
  { name: '--quick', help: 'side by side: one burst of 100 and a 30 s idle measurement (else 100 and 1,000, 60 s idle)' },
  { name: '--singles', value: 'N', help: 'side by side: single applies measured (default 20)' },
  { name: '--bursts', value: 'N[,N…]', help: 'side by side: burst sizes instead of the default ones' },
];

export function benchUsage(): string {
  const column = Math.max(...BENCH_FLAGS.map((f) => `${f.name} ${f.value ?? ''}`.length)) + 2;
  const lines = BENCH_FLAGS.map((f) => `  ${`${f.name} ${f.value ?? ''}`.padEnd(column)}${f.help}`);
  return ['usage: npm run bench -- [flags]', '', ...lines, '', 'Details: docs/operations.md, "Benchmarks".'].join('\n');
}

/** What the arguments ask: help, or a run; an unknown flag is an error naming it. */
export function benchRequest(args: readonly string[]): { help: true } | { help: false } | { error: string } {
  const known = new Map(BENCH_FLAGS.map((f) => [f.name, f]));
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') return { help: true };
    const flag = known.get(arg);
    if (!flag) return { error: `npm run bench: unknown ${arg.startsWith('-') ? 'flag' : 'argument'} '${arg}' (npm run bench -- --help lists the flags)` };
    if (!flag.value) continue;
    const next = args[i + 1];
    const optional = flag.value.startsWith('[');
    if (next === undefined || next.startsWith('--')) {
      if (!optional) return { error: `npm run bench: ${arg} needs a value (${flag.value})` };
      continue;
    }
    i++;
  }
  return { help: false };
}
