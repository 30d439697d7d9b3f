import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

// Workflow code is replayed; it must stay deterministic. It may import types from anywhere but values
// only from the Temporal workflow SDK and from pure helpers (api/, workflows/ itself).
const nodeBuiltins = builtinModules.flatMap((m) => [m, `node:${m}`]);
const workflowForbidden = {
  paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must not use Node built-ins.', allowTypeImports: true })),
  patterns: [
    {
      group: ['@kubernetes/*', '@temporalio/client', '@temporalio/worker', '@temporalio/activity', '@temporalio/testing', 'pino', 'prom-client', 'commander', 'yaml', '@marcbachmann/*'],
      message: 'Workflow code must not import client or I/O libraries; call an activity instead.',
      allowTypeImports: true,
    },
    {
      group: ['**/activities/**', '**/activities', '**/watcher/**', '**/worker/**', '**/webhook/**', '**/cli/**', '**/tools/**', '**/test/**', '**/providers/**'],
      message: 'Workflow code may import only types from this module; effects live in activities.',
      allowTypeImports: true,
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'coverage/**', 'deploy/chart/**', '.state/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', URL: 'readonly', Buffer: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', fetch: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', workflowForbidden],
      'no-restricted-globals': ['error',
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'setInterval', message: 'Use a workflow timer loop.' },
        { name: 'fetch', message: 'Network I/O belongs in an activity.' },
        { name: 'process', message: 'Workflow code must not read the process environment.' }],
    },
  },
);
