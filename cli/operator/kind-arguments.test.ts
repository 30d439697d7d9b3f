// The kind of a target, checked by the commands before they touch the cluster.
import { describe, expect, it } from 'vitest';
import { historyCommand } from '../commands/history.ts';
import { pauseCommand, resumeCommand } from '../commands/pause.ts';
import { retryCommand } from '../commands/retry.ts';
import { statusCommand } from '../commands/status.ts';
import { runCommands } from '../testing/run.ts';

const cli = (argv: string[]) => runCommands([...argv, '--kubeconfig', '/nonexistent/kubeconfig'], [statusCommand, historyCommand, retryCommand, pauseCommand, resumeCommand]);
const KNOWN = 'the known kinds are ModelDeployment (modeldeployments, md), FlameCluster (flameclusters, fc), AsyncActor (asyncactors, asya, asyas), KybernateCheckpoint (kybernatecheckpoints, kcp), KybernateRestore (kybernaterestores, krs), KybernateWorkload (kybernateworkloads, kwl).';

describe('operator commands: kinds', () => {
  it('reject an unknown kind, in a target or --kind, naming the known ones', async () => {
    for (const argv of [['status', 'pods/a/b'], ['history', 'pods/a/b'], ['retry', 'pods/a/b'], ['pause', 'pods/a/b'], ['resume', 'a/b', '--kind', 'pods'], ['status', '--kind', 'pods']]) {
      expect(await cli(argv), argv.join(' ')).toEqual({ code: 1, stdout: '', stderr: `error: Unknown kind 'pods': ${KNOWN}\n` });
    }
  });

  it('reject a target whose kind disagrees with --kind', async () => {
    expect(await cli(['retry', 'md/a/b', '--kind', 'fc'])).toMatchObject({ code: 1, stderr: "error: 'md/a/b' names kind ModelDeployment but --kind says FlameCluster.\n" });
  });

  it('accept every name of a kind, and then need the cluster', async () => {
    for (const argv of [['status', 'fc/a/b'], ['status', 'FlameClusters/a/b'], ['history', 'a/b', '--kind', 'FC'], ['status', '--kind', 'flamecluster'], ['pause', 'md/a/b']]) {
      const result = await cli(argv);
      expect(result.stderr, argv.join(' ')).toMatch(/^error: Cannot load the kubeconfig \/nonexistent\/kubeconfig: /);
    }
  });

  it('document --kind and the KIND/NAMESPACE/NAME target', async () => {
    for (const command of ['status', 'history', 'retry', 'pause', 'resume']) {
      const { stdout } = await cli([command, '--help']);
      expect(stdout, command).toContain('--kind <kind>');
      expect(stdout, command).toContain('KIND/NAMESPACE/NAME');
    }
  });
});
