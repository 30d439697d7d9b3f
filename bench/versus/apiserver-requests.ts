// Requests the kube-apiserver served, from its own `apiserver_request_total` counter: the one count
// every client (Go or Node, cached or not) goes through. Read with the stack's admin token.
import { probe } from '../../devstack/http.ts';

/** Counter values by "VERB group/resource[/subresource]". */
export type RequestCounts = Map<string, number>;

export async function readRequestCounts(apiServerUrl: string, token: string): Promise<RequestCounts> {
  const res = await probe(`${apiServerUrl}/metrics`, token);
  if (res.status !== 200) throw new Error(`GET ${apiServerUrl}/metrics answered ${res.status}`);
  const counts: RequestCounts = new Map();
  for (const line of res.body.split('\n')) {
    if (!line.startsWith('apiserver_request_total{')) continue;
    const close = line.lastIndexOf('}');
    const labels = Object.fromEntries([...line.slice(line.indexOf('{') + 1, close).matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const resource = [labels.group || 'core', labels.resource, labels.subresource].filter(Boolean).join('/');
    const key = `${labels.verb} ${resource}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(close + 1).trim()));
  }
  return counts;
}

export function total(counts: RequestCounts): number {
  let sum = 0;
  for (const v of counts.values()) sum += v;
  return sum;
}

export function delta(after: RequestCounts, before: RequestCounts): RequestCounts {
  const d: RequestCounts = new Map();
  for (const [k, v] of after) {
    const diff = v - (before.get(k) ?? 0);
    if (diff > 0) d.set(k, diff);
  }
  return d;
}
