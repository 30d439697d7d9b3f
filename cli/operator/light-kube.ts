// A small Kubernetes reader for the commands that must answer as fast as kubectl (`status`): loading
// @kubernetes/client-node alone costs about half a second of CPU, more than kubectl's whole call. It
// reads the kubeconfig as kubectl does (--kubeconfig, else every file of $KUBECONFIG merged, first
// wins, else ~/.kube/config, else the in-cluster service account) and makes plain HTTPS GETs with the
// context's CA, client certificate or bearer token. A kubeconfig it does not handle (exec or
// auth-provider plugins, a proxy, username and password) or cannot read makes it answer `undefined`:
// the caller then opens the full client, which also gives the full error messages.

import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { createRequire } from 'node:module';
import type { parse as parseType } from 'yaml';
import { BeyondSubset, parseKubeconfigYaml } from './kubeconfig-yaml.ts';
import type { AnyObject, CollectionRef, ResourceRef } from '../../kube/custom-objects.ts';
import type { KubeOptions } from './connection-options.ts';

interface ClusterEntry {
  server?: string;
  'certificate-authority'?: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
  'proxy-url'?: string;
}

interface UserEntry {
  token?: string;
  tokenFile?: string;
  'client-certificate'?: string;
  'client-certificate-data'?: string;
  'client-key'?: string;
  'client-key-data'?: string;
  exec?: unknown;
  'auth-provider'?: unknown;
  username?: string;
  password?: string;
}

interface ContextEntry {
  cluster?: string;
  user?: string;
  namespace?: string;
}

interface KubeconfigFile {
  'current-context'?: string;
  clusters?: { name: string; cluster?: ClusterEntry }[];
  users?: { name: string; user?: UserEntry }[];
  contexts?: { name: string; context?: ContextEntry }[];
}

/** An entry with the folder of the file it came from (relative paths in a kubeconfig are relative to it). */
type FromFile<T> = { entry: T; dir: string };

export interface LightKube {
  server: string;
  contextNamespace: string;
  get(ref: ResourceRef): Promise<AnyObject | undefined>;
  list(ref: CollectionRef): Promise<AnyObject[]>;
}

/** An HTTP failure shaped as kube/errors.ts classifies it (`code` the status, `body` the Status). */
export class LightKubeError extends Error {
  constructor(
    readonly code: number,
    readonly body: unknown,
  ) {
    super(`HTTP ${code}`);
  }
}

const IN_CLUSTER = '/var/run/secrets/kubernetes.io/serviceaccount';

/** The light reader for these options, or undefined when the full client must be used. */
export function openLightKube(opts: KubeOptions, env: NodeJS.ProcessEnv = process.env): LightKube | undefined {
  const files = opts.kubeconfig ? [opts.kubeconfig] : (env.KUBECONFIG ?? '').split(delimiter).filter(Boolean);
  if (files.length === 0) {
    const home = join(homedir(), '.kube', 'config');
    if (readable(home)) files.push(home);
    else if (!opts.context && env.KUBERNETES_SERVICE_HOST) return inCluster(env);
    else return undefined;
  }
  const clusters = new Map<string, FromFile<ClusterEntry>>();
  const users = new Map<string, FromFile<UserEntry>>();
  const contexts = new Map<string, ContextEntry>();
  let current: string | undefined;
  for (const file of files) {
    let doc: KubeconfigFile;
    try {
      doc = (readKubeconfig(readFileSync(file, 'utf8')) ?? {}) as KubeconfigFile;
    } catch {
      // A file of $KUBECONFIG may be missing, as kubectl allows; an explicit one is for the full client to report.
      if (opts.kubeconfig) return undefined;
      continue;
    }
    if (typeof doc !== 'object') return undefined;
    const dir = dirname(file);
    current ??= doc['current-context'] || undefined;
    for (const c of doc.clusters ?? []) if (!clusters.has(c.name)) clusters.set(c.name, { entry: c.cluster ?? {}, dir });
    for (const u of doc.users ?? []) if (!users.has(u.name)) users.set(u.name, { entry: u.user ?? {}, dir });
    for (const c of doc.contexts ?? []) if (!contexts.has(c.name)) contexts.set(c.name, c.context ?? {});
  }
  const contextName = opts.context ?? current;
  const context = contextName ? contexts.get(contextName) : undefined;
  const cluster = context?.cluster ? clusters.get(context.cluster) : undefined;
  const user = context?.user ? users.get(context.user) : undefined;
  if (!context || !cluster?.entry.server) return undefined;
  const c = cluster.entry;
  const u = user?.entry ?? {};
  if (u.exec || u['auth-provider'] || u.username || u.password || c['proxy-url']) return undefined;
  try {
    const path = (p: string, dir: string) => (isAbsolute(p) ? p : join(dir, p));
    const data = (inline: string | undefined, file: string | undefined, dir: string) =>
      inline ? Buffer.from(inline, 'base64') : file ? readFileSync(path(file, dir)) : undefined;
    const tls: RequestOptions = {
      ca: data(c['certificate-authority-data'], c['certificate-authority'], cluster.dir),
      cert: user ? data(u['client-certificate-data'], u['client-certificate'], user.dir) : undefined,
      key: user ? data(u['client-key-data'], u['client-key'], user.dir) : undefined,
      rejectUnauthorized: !c['insecure-skip-tls-verify'],
      ...(c['tls-server-name'] ? { servername: c['tls-server-name'] } : {}),
    };
    const token = u.token ?? (u.tokenFile && user ? readFileSync(path(u.tokenFile, user.dir), 'utf8').trim() : undefined);
    return reader(c.server!, context.namespace ?? 'default', tls, token);
  } catch {
    return undefined;
  }
}

/** JSON, or YAML: the plain subset kubeconfigs are written in without the `yaml` package (kubeconfig-yaml.ts), else with it. */
function readKubeconfig(text: string): unknown {
  if (text.trimStart().startsWith('{')) return JSON.parse(text);
  try {
    return parseKubeconfigYaml(text);
  } catch (err) {
    if (!(err instanceof BeyondSubset)) throw err;
    // Loaded only now, synchronously: about 40 ms that most calls never pay.
    const { parse } = createRequire(import.meta.url)('yaml') as { parse: typeof parseType };
    return parse(text);
  }
}

function inCluster(env: NodeJS.ProcessEnv): LightKube | undefined {
  try {
    const host = env.KUBERNETES_SERVICE_HOST!;
    const server = `https://${host.includes(':') ? `[${host}]` : host}:${env.KUBERNETES_SERVICE_PORT ?? '443'}`;
    const token = readFileSync(join(IN_CLUSTER, 'token'), 'utf8').trim();
    let namespace = 'default';
    try {
      namespace = readFileSync(join(IN_CLUSTER, 'namespace'), 'utf8').trim() || 'default';
    } catch {
      // no namespace file: default
    }
    return reader(server, namespace, { ca: readFileSync(join(IN_CLUSTER, 'ca.crt')) }, token);
  } catch {
    return undefined;
  }
}

function readable(file: string): boolean {
  try {
    readFileSync(file);
    return true;
  } catch {
    return false;
  }
}

const collectionPath = (ref: CollectionRef) =>
  `${ref.group ? `/apis/${ref.group}/${ref.version}` : `/api/${ref.version}`}${ref.namespace ? `/namespaces/${encodeURIComponent(ref.namespace)}` : ''}/${ref.plural}`;

function reader(server: string, contextNamespace: string, tls: RequestOptions, token: string | undefined): LightKube {
  const base = new URL(server);
  const call = (path: string): Promise<{ status: number; body: unknown }> =>
    new Promise((resolve, reject) => {
      const secure = base.protocol === 'https:';
      const options: RequestOptions = {
        ...(secure ? tls : {}),
        method: 'GET',
        host: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || (secure ? 443 : 80),
        path: `${base.pathname.replace(/\/$/, '')}${path}`,
        headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        timeout: 10_000,
      };
      const onResponse = (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // a plain-text answer ("404 page not found") stays text
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
        res.on('error', reject);
      };
      const req = secure ? httpsRequest(options, onResponse) : httpRequest(options, onResponse);
      req.on('timeout', () => req.destroy(Object.assign(new Error(`no answer from ${server} within 10s`), { code: 'ETIMEDOUT' })));
      req.on('error', reject);
      req.end();
    });
  return {
    server,
    contextNamespace,
    async get(ref) {
      const { status, body } = await call(`${collectionPath(ref)}/${encodeURIComponent(ref.name)}`);
      if (status === 200) return body as AnyObject;
      if (status === 404 && (body as { reason?: string } | undefined)?.reason === 'NotFound') return undefined;
      throw new LightKubeError(status, body);
    },
    async list(ref) {
      const { status, body } = await call(collectionPath(ref));
      if (status === 200) return ((body as { items?: AnyObject[] }).items ?? []);
      throw new LightKubeError(status, body);
    },
  };
}
