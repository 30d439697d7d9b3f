import { describe, expect, it } from 'vitest';
import { uninstallRefusal } from './install.ts';

describe('uninstallRefusal', () => {
  it('names ModelDeployments by namespace/name when they are all that remain', () => {
    expect(uninstallRefusal(['ModelDeployment team-a/llama'])).toBe(
      '1 ModelDeployment still exist (team-a/llama): delete them first so the controller cleans up their provider resources, or pass --force.',
    );
  });

  it('names every kind when other objects wait on the controller, and the first five only', () => {
    const remaining = ['ModelDeployment a/m', 'AsyncActor a/actor', 'KybernateCheckpoint b/cp', 'KybernateCheckpoint c/cp', 'KybernateCheckpoint d/cp', 'KybernateCheckpoint e/cp'];
    expect(uninstallRefusal(remaining)).toBe(
      '6 objects of ours still exist (ModelDeployment a/m, AsyncActor a/actor, KybernateCheckpoint b/cp, KybernateCheckpoint c/cp, KybernateCheckpoint d/cp, …): ' +
        'delete them first so the controller cleans up what they made (provider resources, queues, checkpoint images), or pass --force.',
    );
  });
});
