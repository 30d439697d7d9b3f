// The light reader against a real HTTP server on loopback: what it sends (path, token) and how it reads
// kubeconfigs; the kubeconfigs it leaves to the full client.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyKubeError } from '../../kube/errors.ts';
import { openLightKube } from './light-kube.ts';

const dir = mkdtempSync(join(tmpdir(), 'light-kube-'));
let server: Server;
let url = '';
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url!, headers: req.headers });
    res.setHeader('content-type', 'application/json');
    if (req.url === '/apis/kubeairunway.ai/v1alpha1/namespaces/team-a/modeldeployments') res.end(JSON.stringify({ items: [{ metadata: { name: 'b' } }, { metadata: { name: 'a' } }] }));
    else if (req.url === '/apis/kubeairunway.ai/v1alpha1/namespaces/team-a/modeldeployments/a') res.end(JSON.stringify({ metadata: { name: 'a' } }));
    else if (req.url!.startsWith('/apis/kubeairunway.ai/')) {
      res.statusCode = 404;
      res.end(JSON.stringify({ kind: 'Status', reason: 'NotFound', message: 'not found' }));
    } else {
      res.statusCode = 404;
      res.setHeader('content-type', 'text/plain');
      res.end('404 page not found');
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

function kubeconfig(file: string, user: Record<string, unknown>, context = 'dev', extra: Record<string, unknown> = {}): string {
  const path = join(dir, file);
  writeFileSync(
    path,
    [
      'apiVersion: v1',
      'kind: Config',
      `current-context: ${context}`,
      'clusters:',
      `- name: local\n  cluster:\n    server: ${url}`,
      'users:',
      `- name: me\n  user: ${JSON.stringify(user)}`,
      'contexts:',
      `- name: dev\n  context: {cluster: local, user: me, namespace: team-a}`,
      ...Object.entries(extra).map(([k, v]) => `${k}: ${JSON.stringify(v)}`),
    ].join('\n'),
  );
  return path;
}

const md = { group: 'kubeairunway.ai', version: 'v1alpha1', plural: 'modeldeployments' };

describe('light Kubernetes reader', () => {
  it('lists and gets with the bearer token, in the context namespace', async () => {
    const kube = openLightKube({ kubeconfig: kubeconfig('token', { token: 'secret-token' }) }, {})!;
    expect(kube.contextNamespace).toBe('team-a');
    expect((await kube.list({ ...md, namespace: 'team-a' })).map((o) => o.metadata?.name)).toEqual(['b', 'a']);
    expect((await kube.get({ ...md, namespace: 'team-a', name: 'a' }))?.metadata?.name).toBe('a');
    expect(await kube.get({ ...md, namespace: 'team-a', name: 'missing' })).toBeUndefined();
    expect(seen.at(-1)!.headers.authorization).toBe('Bearer secret-token');
  });

  it('fails a missing resource type as the full client does: classified NoKindMatch', async () => {
    const kube = openLightKube({ kubeconfig: kubeconfig('nokind', { token: 't' }) }, {})!;
    const err = await kube.list({ group: '', version: 'v1', plural: 'nothings', namespace: 'x' }).catch((e: unknown) => e);
    expect(classifyKubeError(err).type).toBe('NoKindMatch');
  });

  it('merges $KUBECONFIG files, the first one winning, and follows --context', () => {
    const first = kubeconfig('first', { token: 'a' }, 'dev');
    const second = kubeconfig('second', { token: 'b' }, 'other');
    const kube = openLightKube({}, { KUBECONFIG: `${join(dir, 'absent')}:${first}:${second}` });
    expect(kube?.server).toBe(url);
    expect(openLightKube({ context: 'nope' }, { KUBECONFIG: first })).toBeUndefined();
  });

  it('leaves exec plugins, auth providers and unreadable files to the full client', () => {
    expect(openLightKube({ kubeconfig: kubeconfig('exec', { exec: { command: 'aws' } }) }, {})).toBeUndefined();
    expect(openLightKube({ kubeconfig: kubeconfig('auth', { 'auth-provider': { name: 'oidc' } }) }, {})).toBeUndefined();
    expect(openLightKube({ kubeconfig: join(dir, 'absent') }, {})).toBeUndefined();
  });
});
