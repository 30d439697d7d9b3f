import { request } from 'node:https';
import { request as plainRequest } from 'node:http';

export interface ProbeResult {
  status: number;
  body: string;
}

/**
 * One GET for readiness probes. Local servers use self-signed certificates we did not issue, so
 * verification is off here; this is only ever pointed at our own loopback processes.
 */
export function probe(url: string, token?: string): Promise<ProbeResult> {
  const u = new URL(url);
  const doRequest = u.protocol === 'https:' ? request : plainRequest;
  return new Promise((resolve, reject) => {
    const req = doRequest(
      u,
      { method: 'GET', rejectUnauthorized: false, timeout: 5_000, headers: token ? { authorization: `Bearer ${token}` } : {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}
