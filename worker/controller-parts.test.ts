import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { InformerSet } from '../kube/informer-set.ts';
import { dynamoProvider } from '../providers/dynamo/index.ts';
import { kaitoProvider } from '../providers/kaito/index.ts';
import { controllerContext } from './controller-context.ts';
import type { ControllerOptions } from './controller-options.ts';
import { controllerParts, workerWaits } from './controller-parts.ts';
import { ModelDeploymentProviders } from './model-deployment-providers.ts';
import { NOTHING_TO_STOP } from './parts.ts';

/** A controller's options for a subset of its parts; nothing here is reached (no part is started). */
function subset(parts: Pick<ControllerOptions, 'core' | 'watcher' | 'providers'> & Partial<ControllerOptions>): ControllerOptions {
  return { kc: new KubeConfig(), temporalAddress: 'localhost:7233', temporalNamespace: 'default', ...parts };
}

/** The controller's parts for a subset, then what its workers part waits on side by side. */
function namesFor(opts: ControllerOptions): { parts: string[]; waits: string[] } {
  const ctx = controllerContext(opts);
  return {
    parts: controllerParts(ctx).map((p) => p.name),
    waits: workerWaits(ctx, new ModelDeploymentProviders(ctx), []).map((p) => p.name),
  };
}

describe("the controller's parts", () => {
  it('for the whole controller: the connection and caches first, the providers before the watcher, the workers last', () => {
    expect(namesFor(subset({ core: true, watcher: true, providers: [kaitoProvider, dynamoProvider] }))).toEqual({
      parts: ['temporal connection', 'informers', 'provider liveness', 'provider signals', 'provider kaito', 'provider dynamo', 'watcher', 'workers'],
      // Stopped in reverse: the providers say they are not ready before any worker shuts down.
      waits: ['informer sync', 'core worker', 'provider workers', 'provider registration'],
    });
  });

  it('for the core alone: its watch over provider heartbeats and its worker, no provider part', () => {
    expect(namesFor(subset({ core: true, watcher: false, providers: [] }))).toEqual({
      parts: ['temporal connection', 'informers', 'provider liveness', 'workers'],
      waits: ['informer sync', 'core worker'],
    });
  });

  it('for a provider deployed alone: its signals, resource watch, worker and registration, no core', () => {
    expect(namesFor(subset({ core: false, watcher: false, providers: [kaitoProvider] }))).toEqual({
      parts: ['temporal connection', 'informers', 'provider signals', 'provider kaito', 'workers'],
      waits: ['informer sync', 'provider workers', 'provider registration'],
    });
  });

  it('for the watcher alone: no worker to wait for, only the first lists', () => {
    expect(namesFor(subset({ core: false, watcher: true, providers: [] }))).toEqual({
      parts: ['temporal connection', 'informers', 'watcher', 'workers'],
      waits: ['informer sync'],
    });
  });
});

describe("the controller's informers part", () => {
  const informersPart = (opts: ControllerOptions) => {
    const ctx = controllerContext(opts);
    return { ctx, part: controllerParts(ctx).find((p) => p.name === 'informers') };
  };

  it('stops a set of its own', async () => {
    const { ctx, part } = informersPart(subset({ core: true, watcher: false, providers: [] }));
    expect(await part?.start()).toBe(ctx.informers);
  });

  it('leaves a set it was handed for the caller to stop', async () => {
    const informers = new InformerSet(new KubeConfig());
    const { ctx, part } = informersPart(subset({ core: true, watcher: false, providers: [], informers }));
    expect(ctx.informers).toBe(informers);
    expect(await part?.start()).toBe(NOTHING_TO_STOP);
  });
});
