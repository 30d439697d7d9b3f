// The Temporal SDK's logger over pino, as the runtime uses it (worker/runtime.ts): what the SDK hands
// in, including its Rust core's forwarded lines, comes out as one JSON record each.
import { LogTimestamp, type LogLevel } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { createLogger, temporalLogger } from './logger.ts';

function capture(level: string) {
  const written: string[] = [];
  const sdk = temporalLogger(createLogger({ level, destination: { write: (s: string) => void written.push(s) } }));
  const records = (): Record<string, unknown>[] => written.map((line) => JSON.parse(line));
  return { sdk, written, records };
}

describe('temporalLogger', () => {
  it("writes a line the core forwarded as one JSON record saying it came from the SDK's core", () => {
    const { sdk, written, records } = capture('info');
    // As the runtime's log collector hands a core line on (runtime-logger.js, convertFromNativeLogEntry).
    sdk.log('WARN', 'Worker heartbeat failed', {
      [LogTimestamp]: 1_764_400_000_000_000_000n,
      sdkComponent: 'core',
      target: 'temporal_sdk_core::worker::heartbeat',
      taskQueue: 'kubeairunway-core',
    });
    expect(written).toHaveLength(1);
    expect(written[0]!.endsWith('\n')).toBe(true);
    expect(records()[0]).toMatchObject({
      level: 40,
      component: 'kubeairunway',
      source: 'temporal-sdk',
      sdkComponent: 'core',
      target: 'temporal_sdk_core::worker::heartbeat',
      taskQueue: 'kubeairunway-core',
      msg: 'Worker heartbeat failed',
    });
  });

  it("maps each of the SDK's levels to pino's", () => {
    const { sdk, records } = capture('trace');
    const levels: LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];
    for (const level of levels) sdk.log(level, `at ${level}`, { sdkComponent: 'worker' });
    expect(records().map((r) => [r.level, r.msg])).toEqual([
      [10, 'at TRACE'],
      [20, 'at DEBUG'],
      [30, 'at INFO'],
      [40, 'at WARN'],
      [50, 'at ERROR'],
    ]);
  });

  it("keeps below the logger's level what the SDK says below it", () => {
    const { sdk, written } = capture('warn');
    sdk.info('Worker state changed', { sdkComponent: 'worker' });
    sdk.debug('Activity completed', { sdkComponent: 'activity' });
    expect(written).toEqual([]);
  });
});
