import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Four projects: pure unit tests (next to the code they test, no stack); workflow tests (test/workflows:
// workflows on stub activities, against a Temporal server of their own and no Kubernetes); integration
// tests (the rest of test/, sharing one local stack that the global setup starts once per run); and the
// files that start stacks of their own (`stacks`).
//
// Two workers, whatever the core count: vitest's default (cores - 1) is one on this two-core machine, which
// ran every file one after another. The groups run one after another (sequence.groupOrder); `npm test`
// (scripts/test.mjs) runs the stacks project and the unit then workflow projects beside the integration
// project, each in a vitest run of its own.
//
// The JSON report goes where KUBEAIRUNWAY_VITEST_REPORT says (`npm test` sets it for each of its runs and
// merges them into .vitest-results.json); a plain `vitest run` writes its own, named by its process id, so
// two runs in one checkout never write one file.
// The files that start everything they test themselves and use nothing of the shared stack: the cluster
// files (a cluster and its node each), the chaos run, and the dev command's and supervisor's (stacks of
// their own). `npm test` runs them beside the integration files, one at a time: about as long as those.
const OWN_STACK_FILES = [
  'test/cluster/**/*.test.ts',
  'test/chaos/**/*.test.ts',
  ...['dev-command', 'dev-interrupt', 'dev-kybernate-node', 'rabbitmq-supervised', 'supervised-stack'].map((f) => `test/devstack/${f}.test.ts`),
];

const report = process.env.KUBEAIRUNWAY_VITEST_REPORT ?? join(tmpdir(), `kubeairunway-vitest-${process.pid}.json`);

export default defineConfig({
  test: {
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: report }]],
    projects: [
      {
        test: {
          name: 'unit',
          sequence: { groupOrder: 0 },
          // Every test file beside the product's code, whichever folder (a new layer needs no edit here).
          include: ['**/*.test.ts'],
          exclude: ['test/**', 'node_modules/**', 'dist/**', '.state/**'],
          environment: 'node',
          // A few unit tests start a process (`npm run bench -- --help`, `npm run dev` on a locked folder, the
          // CLI's entry point, the compiler): about 4 s on a quiet 2-core machine, over vitest's 5 s default
          // whenever anything else runs. Their bound is the process's own; this only stops a false failure.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'workflows',
          sequence: { groupOrder: 1 },
          include: ['test/workflows/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/setup/temporal-only.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 2 },
          include: ['test/**/*.test.ts'],
          exclude: ['test/workflows/**', ...OWN_STACK_FILES],
          environment: 'node',
          globalSetup: ['test/setup/global-stack.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // Files run one after another: they share one cluster, and the built-in providers' cluster-scoped
          // InferenceProviderConfigs belong to whichever controller a file starts. Tests inside a file
          // may run concurrently, each in its own namespace.
          fileParallelism: false,
          // One process for the files one after another: each would otherwise load the product's modules again (~5 s).
          isolate: false,
        },
      },
      {
        test: {
          name: 'stacks',
          sequence: { groupOrder: 3 },
          include: OWN_STACK_FILES,
          environment: 'node',
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // One at a time: the cluster files build and load the same product image, and each start of a
          // stack is most of a core for a while.
          fileParallelism: false,
          isolate: false,
        },
      },
    ],
  },
});
