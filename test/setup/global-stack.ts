import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { reapOrphanStacks } from '../../devstack/leftovers.ts';
import { startStack } from '../../devstack/stack.ts';
import { testStackCrds } from '../../devstack/crd-files.ts';
import type { StackInfo } from '../support/stack-info.ts';

const STACKS_DIR = join(tmpdir(), 'kubeairunway-test-stacks');

/** One local stack per test run, shared by every integration test file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  reapOrphanStacks(STACKS_DIR);
  mkdirSync(STACKS_DIR, { recursive: true });
  const stateDir = mkdtempSync(join(STACKS_DIR, 'run-'));
  const t0 = Date.now();
  // The upstream projects' real CRDs (KAITO's and Dynamo's from ../shared/upstream-crds, KubeRay's and
  // KEDA's from their Go modules): every provider resource a test creates must fit the real schema.
  const crds = testStackCrds(project.config.root);
  if (crds.fallback) process.stdout.write(`[stack] WARNING: ${crds.fallback}\n`);
  const stack = await startStack({
    stateDir,
    crdFiles: crds.files,
    crds: crds.crds,
    log: (line) => process.stdout.write(`[stack] ${line}\n`),
  });
  process.stdout.write(`[stack] up in ${((Date.now() - t0) / 1000).toFixed(1)}s (logs in ${stateDir})\n`);
  const info: StackInfo = {
    kubeconfigPath: stack.kubeconfigPath,
    temporalAddress: stack.temporalAddress,
    temporalNamespace: stack.temporalNamespace,
    amqpUrl: stack.amqpUrl,
    stateDir,
  };
  project.provide('stack', info);
  return async () => {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  };
}
