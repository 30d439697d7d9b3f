// One process of the product: any subset of the core worker, the provider workers and the watcher, as
// named parts started in order and stopped in reverse (worker/controller-parts.ts).

import { controllerContext } from './controller-context.ts';
import type { Controller, ControllerOptions } from './controller-options.ts';
import { controllerParts } from './controller-parts.ts';
import { startParts } from './parts.ts';
import { installRuntime } from './runtime.ts';
import { createLogger } from '../observability/logger.ts';

export type { Controller, ControllerOptions } from './controller-options.ts';

export async function startController(opts: ControllerOptions): Promise<Controller> {
  installRuntime(opts.sdkLogger ?? createLogger({ level: 'warn' }));
  const ctx = controllerContext(opts);
  const running = await startParts(controllerParts(ctx), ctx.parts);
  ctx.log(`controller running: ${[opts.core && 'core', opts.watcher && 'watcher', ...opts.providers.map((p) => `provider ${p.name}`)].filter(Boolean).join(', ')}`);
  const { connection, client } = ctx.temporal.get();
  return { settings: ctx.settings, client, connection, informers: ctx.informers, stop: running.stop };
}
