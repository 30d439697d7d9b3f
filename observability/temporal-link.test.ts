import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isConnectionSymptom, shortStatus, takeSdkLogLine, watchTemporalLink } from './temporal-link.ts';

// What the SDK's core logs, per poller and retry, while the server is unreachable (seen on this stack).
const RETRY = 'gRPC call poll_activity_task_queue retried 6 times';
const STATUS =
  'Status { code: Unavailable, message: "tcp connect error", source: Some(tonic::transport::Error(Transport, ConnectError(ConnectError("tcp connect error", 127.0.0.1:7233, Os { code: 111, kind: ConnectionRefused, message: "Connection refused" })))) }';

describe('isConnectionSymptom', () => {
  it('recognises poll retries and connection errors, and nothing else', () => {
    expect(isConnectionSymptom(RETRY, { error: STATUS })).toBe(true);
    expect(isConnectionSymptom('Error while polling for activity tasks')).toBe(true);
    expect(isConnectionSymptom('Workflow task failed', { error: 'ReferenceError: x is not defined' })).toBe(false);
    expect(isConnectionSymptom('No workflows registered, not polling for workflow tasks')).toBe(false);
  });

  it('shortens a gRPC status to its code, message and cause', () => {
    expect(shortStatus(STATUS)).toBe('Unavailable, tcp connect error, Connection refused');
    expect(shortStatus('plain text')).toBe('plain text');
  });
});

describe('takeSdkLogLine', () => {
  it('leaves lines alone while no link watches, and says a lost server once while one does', async () => {
    expect(takeSdkLogLine(RETRY, { error: STATUS })).toBe(false);
    // A port nothing listens on: the probe keeps failing, so the link stays down.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await new Promise((r) => server.close(r));
    const lines: string[] = [];
    const link = watchTemporalLink({ address: `127.0.0.1:${port}`, log: (l) => lines.push(l) });
    try {
      for (let i = 0; i < 300; i++) expect(takeSdkLogLine(RETRY, { error: STATUS })).toBe(true);
      expect(takeSdkLogLine('Workflow task failed')).toBe(false);
      expect(link.down).toBe(true);
      expect(lines).toEqual([`Temporal server at 127.0.0.1:${port} lost (${RETRY}: Unavailable, tcp connect error, Connection refused); retrying with backoff`]);
    } finally {
      link.stop();
    }
    expect(takeSdkLogLine(RETRY, { error: STATUS })).toBe(false);
  });
});
