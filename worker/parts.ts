// A process as a list of named parts started in order and stopped in reverse. Pure lifecycle logic:
// what the parts are is the composition roots' business (worker/product.ts, worker/controller-parts.ts). Shutdown must finish even when a server a part
// talks to is already gone, so every stop is bounded; and a part that fails to start must not leave
// the ones before it running (a half-started process would hold ports and watches until killed).

import { startPhases, type TimePhase } from './start-phases.ts';
import { messageOf } from '../contract/failure-types.ts';

/** Fields first, then the message: pino's calling convention, so a pino logger fits as is. */
export interface RecordLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
  error(fields: object, msg: string): void;
}

export interface Stoppable {
  stop(): unknown;
}

export interface PartSpec {
  name: string;
  /** Later parts may use what earlier ones started (the spec closes over it). */
  start(): Promise<Stoppable> | Stoppable;
}

export interface RunningParts {
  /** The parts that started, in start order. */
  readonly names: readonly string[];
  /** Stops every part in reverse order, each within the bound; the same promise when called again. */
  stop(): Promise<void>;
}

export const DEFAULT_STOP_WITHIN_MS = 15_000;

/** A part that did not start. The cause's message is kept, so what a person is shown does not change. */
export class PartStartError extends Error {
  constructor(
    readonly part: string,
    override readonly cause: Error,
  ) {
    super(cause.message);
    this.name = 'PartStartError';
  }
}

/** A part with nothing to stop (a step done once at start). */
export const NOTHING_TO_STOP: Stoppable = { stop: () => undefined };

export interface PartsOptions {
  log: RecordLog;
  /** How long each part may take to stop; DEFAULT_STOP_WITHIN_MS when omitted. */
  stopWithinMs?: number;
  /** Times each part's start; one `start phase` record each to `log` when omitted. */
  timePhase?: TimePhase;
}

interface StartedPart {
  name: string;
  part: Stoppable;
}

interface FailedPart {
  name: string;
  failure: Error;
}

export async function startParts(specs: readonly PartSpec[], opts: PartsOptions): Promise<RunningParts> {
  const started: StartedPart[] = [];
  // Each part's start is timed (one `start phase` record each): where a slow start goes shows in the log.
  const timed = opts.timePhase ?? startPhases(opts.log);
  for (const spec of specs) {
    try {
      started.push({ name: spec.name, part: await timed(spec.name, () => spec.start()) });
    } catch (err) {
      await stopInReverse(started, opts);
      throw new PartStartError(spec.name, asError(err));
    }
  }
  return running(started, opts);
}

/**
 * Parts started side by side, for waits on different things (a worker loading its code while the
 * caches make their first lists), and stopped as `startParts` stops them: in reverse of their listing,
 * each bounded. When one fails to start, the others are waited for and those that started are stopped.
 */
export async function startTogether(specs: readonly PartSpec[], opts: PartsOptions): Promise<RunningParts> {
  const timed = opts.timePhase ?? startPhases(opts.log);
  const outcomes = await Promise.all(
    specs.map(async (spec): Promise<StartedPart | FailedPart> => {
      try {
        return { name: spec.name, part: await timed(spec.name, () => spec.start()) };
      } catch (err) {
        return { name: spec.name, failure: asError(err) };
      }
    }),
  );
  const started = outcomes.filter((o): o is StartedPart => 'part' in o);
  const failed = outcomes.find((o): o is FailedPart => 'failure' in o);
  if (failed) {
    await stopInReverse(started, opts);
    throw new PartStartError(failed.name, failed.failure);
  }
  return running(started, opts);
}

function running(started: readonly StartedPart[], opts: PartsOptions): RunningParts {
  let stopping: Promise<void> | undefined;
  return { names: started.map((s) => s.name), stop: () => (stopping ??= stopInReverse(started, opts)) };
}

async function stopInReverse(started: readonly StartedPart[], opts: PartsOptions): Promise<void> {
  for (const { name, part } of [...started].reverse()) await bounded(name, stopOf(part), opts.log, opts.stopWithinMs);
}

const asError = (err: unknown): Error => (err instanceof Error ? err : new Error(String(err)));

/** A list of parts some of which a description leaves out (`condition && part`): the ones it keeps. */
export function listed(parts: readonly (PartSpec | false)[]): PartSpec[] {
  return parts.filter((p): p is PartSpec => p !== false);
}

/**
 * A value one part starts and parts after it use (the Temporal connection). Read before it is set, the
 * parts are listed in the wrong order: said as that, not as an undefined deep in a later part.
 */
export class Later<T> {
  private value: { set: T } | undefined;

  constructor(private readonly what: string) {}

  set(value: T): T {
    this.value = { set: value };
    return value;
  }

  get(): T {
    if (!this.value) throw new PartOrderError(this.what);
    return this.value.set;
  }
}

export class PartOrderError extends Error {
  constructor(what: string) {
    super(`${what} was used before the part that starts it ran`);
    this.name = 'PartOrderError';
  }
}

/** A stop that throws synchronously is a failed stop like any other, not an exception out of shutdown. */
function stopOf(part: Stoppable): Promise<unknown> {
  return Promise.resolve().then(() => part.stop());
}

/** Waits for a part to stop, but not forever; a failure or an overrun is logged and shutdown goes on. */
export async function bounded(name: string, stopping: Promise<unknown>, log: RecordLog, ms = DEFAULT_STOP_WITHIN_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  const result = await Promise.race([
    stopping.then(
      () => 'done' as const,
      (err: unknown) => (log.error({ part: name, err: messageOf(err) }, 'stopping failed'), 'done' as const),
    ),
    timeout,
  ]);
  clearTimeout(timer);
  if (result === 'timeout') log.warn({}, `${name} did not stop within ${ms / 1000}s; going on`);
}
