// The production build runs as the image runs it: `npm run build`'s output in a folder laid out like the
// image's /app (no sources, no tsx; image-layout.ts). The offline CLI gives the sources' answers, the
// prebuilt workflow bundle replays every recorded history, and the compiled `run --core` starts against
// the local stack's Temporal from that bundle, without bundling its workflows.

import { execFile } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/testing/run.ts';
import { startProcess, stopProcess, waitUntil } from '../../devstack/process.ts';
import { recordedHistories, replayFailures } from '../../worker/replay.ts';
import { WORKFLOW_BUNDLE_FILE } from '../../worker/workflow-code.ts';
import { stackInfo, testKube, uniqueName, type TestKube } from '../support/env.ts';
import { imageLayout } from './image-layout.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = 'examples/gpu-vllm-dynamo.yaml';

describe('the production build, laid out as the image', () => {
  let app: string;
  const cli = (args: string[]) => promisify(execFile)(process.execPath, [join(app, 'bin', 'kubeairunway.js'), ...args], { cwd: ROOT });

  beforeAll(async () => {
    app = await imageLayout(ROOT);
  }, 180_000);
  afterAll(() => {
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('holds the compiled code and the prebuilt bundle, and neither sources nor tsx', () => {
    expect(existsSync(join(app, 'dist', 'cli', 'main.js'))).toBe(true);
    expect(existsSync(join(app, 'dist', WORKFLOW_BUNDLE_FILE))).toBe(true);
    expect(existsSync(join(app, 'cli'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'tsx'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', '@temporalio', 'worker'))).toBe(true);
  });

  it('preloads the workflow code in its bundle (evaluated once per V8 context, not once per workflow)', () => {
    const code = readFileSync(join(app, 'dist', WORKFLOW_BUNDLE_FILE), 'utf8');
    // The SDK's entry runs this function before any workflow exists; without preloading it is empty.
    expect(code).toMatch(/exports\.preloadModules = function preloadModules\(\) \{\s*__webpack_require__\([^)]*"\.\/workflows\/index\.ts"\);\s*\}/);
  });

  it('validates and renders offline with the same output as the sources', async () => {
    const validate = await cli(['validate', '-f', EXAMPLE]);
    expect(validate.stdout).toBe((await run(['validate', '-f', EXAMPLE])).stdout);
    expect(validate.stdout).toContain('is valid');
    const render = await cli(['render', '-f', EXAMPLE]);
    expect(render.stdout).toBe((await run(['render', '-f', EXAMPLE])).stdout);
    expect(render.stdout).toContain('kind: DynamoGraphDeployment');
  });

  it('replays every recorded history with the prebuilt workflow bundle', async () => {
    const histories = recordedHistories();
    expect(histories.length).toBeGreaterThan(0);
    expect(await replayFailures({ codePath: join(app, 'dist', WORKFLOW_BUNDLE_FILE) }, histories)).toEqual([]);
  });

  describe('`run --core` against the local stack', () => {
    let kube: TestKube;
    beforeAll(async () => {
      kube = await testKube('build');
    });
    afterAll(async () => {
      await kube?.cleanup();
    });

    it('starts the core worker from the prebuilt bundle, without bundling the workflows', async () => {
      // What the compiled core worker passes to Worker.create, asked of the compiled module itself.
      const module = join(app, 'dist', 'worker', 'workflow-code.js');
      const script = `const { workflowCode } = await import(${JSON.stringify(module)}); process.stdout.write(JSON.stringify(workflowCode()));`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
      expect(JSON.parse(stdout)).toEqual({ workflowBundle: { codePath: join(app, 'dist', WORKFLOW_BUNDLE_FILE) } });

      const { kubeconfigPath, temporalAddress, temporalNamespace } = stackInfo();
      const logFile = join(app, 'run.log');
      // A task-queue prefix of its own: nothing else's workflows reach this worker.
      const args = ['run', '--core', '--no-metrics', '--namespaces', kube.namespace, '--task-queue-prefix', uniqueName('build')];
      const proc = startProcess('compiled run --core', process.execPath, [join(app, 'bin', 'kubeairunway.js'), ...args, '--kubeconfig', kubeconfigPath, '--temporal-address', temporalAddress, '--temporal-namespace', temporalNamespace], logFile);
      try {
        await waitUntil(proc, 'running', 60_000, async () => readFileSync(logFile, 'utf8').includes('kubeairunway controller running'));
      } finally {
        await stopProcess(proc);
      }
      const log = readFileSync(logFile, 'utf8');
      // The Temporal SDK logs this line whenever Worker.create bundles workflowsPath with webpack.
      expect(log).not.toContain('Workflow bundle created');
      expect(proc.exited).toBe('code 0');
    });
  });
});
