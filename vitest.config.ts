import { defineConfig } from 'vitest/config';

// Two projects: pure unit tests (next to the code they test, no stack) and integration tests (under
// test/, sharing one local stack that the global setup starts once per run).
export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{api,broker,containerd,contract,providers,workflows,activities,watcher,worker,webhook,cli,tools,kube,devstack,observability}/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/setup/global-stack.ts'],
          testTimeout: 180_000,
          hookTimeout: 300_000,
          // Files run one after another: they share one cluster, and the built-in providers' cluster-scoped
          // InferenceProviderConfigs belong to whichever controller a file starts. Tests inside a file
          // may run concurrently, each in its own namespace.
          fileParallelism: false,
        },
      },
    ],
  },
});
