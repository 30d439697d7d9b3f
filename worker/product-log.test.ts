import { describe, expect, it } from 'vitest';
import { createLogger } from '../observability/logger.ts';
import { jsonLog, plainLog } from './product-log.ts';

describe('plainLog', () => {
  it("writes a part's lines as they are and its records as one line each", () => {
    const lines: string[] = [];
    const log = plainLog((l) => lines.push(l), { steps: createLogger({ level: 'silent' }) });
    log.lines('informers')('ModelDeployment watch lost');
    log.records('webhook').info({ url: 'https://127.0.0.1:1' }, 'admission webhook serving');
    log.records('webhook').warn({ err: 'denied', skipped: undefined }, 'listing failed');
    log.records().error({ part: 'controller', err: 'gone' }, 'stopping failed');
    expect(lines).toEqual([
      'ModelDeployment watch lost',
      'webhook admission webhook serving (url=https://127.0.0.1:1)',
      'webhook warn: listing failed (err=denied)',
      'error: stopping failed (part=controller err=gone)',
    ]);
  });
});

describe('jsonLog', () => {
  it('writes everything as pino JSON, naming the source of each part', () => {
    const records: Record<string, unknown>[] = [];
    const log = jsonLog(createLogger({ level: 'debug', destination: { write: (l: string) => void records.push(JSON.parse(l)) } }));
    log.lines('controller')('controller running: core');
    log.records('webhook').warn({ err: 'denied' }, 'listing failed');
    log.records().info({ url: 'http://x' }, 'metrics endpoint serving');
    log.steps('provider-kaito').info('step');
    expect(records).toMatchObject([
      { level: 30, source: 'controller', msg: 'controller running: core' },
      { level: 40, source: 'webhook', err: 'denied', msg: 'listing failed' },
      { level: 30, url: 'http://x', msg: 'metrics endpoint serving' },
      { level: 30, source: 'provider-kaito', msg: 'step' },
    ]);
    expect(records[2]).not.toHaveProperty('source');
  });
});
