import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveTool } from '../tools/resolve.ts';
import { dockerCacheDir, type DockerEngine } from './docker.ts';
import { aptInstall, ensureDerivedImage, ensureNodeBaseImage } from './docker-images.ts';
import { executable } from './executables.ts';

// Images for docker-compose.yml that can be had without a registry (issue 28): PostgreSQL from Debian's
// package; the Temporal server and its SQL schema tool built from the Go module proxy (as the local
// stack's tools are), beside the Temporal CLI the stack already built. Each honours the environment the
// compose file gives the official image it stands in for, so the compose file runs unchanged with
// POSTGRES_IMAGE, TEMPORAL_IMAGE and TEMPORAL_ADMINTOOLS_IMAGE pointing at them. No Temporal UI image:
// its server is one more Go module, but its web assets come from npm's build of the UI, not from Go.

/** The Temporal server version built here: the one the stack's Temporal CLI (1.5.1) embeds. */
export const TEMPORAL_SERVER_VERSION = '1.29.1';
export const LOCAL_POSTGRES_IMAGE = 'kubeairunway-local/postgres:trixie';
export const LOCAL_TEMPORAL_IMAGE = `kubeairunway-local/temporal-server:${TEMPORAL_SERVER_VERSION}`;
export const LOCAL_ADMINTOOLS_IMAGE = `kubeairunway-local/temporal-admin-tools:${TEMPORAL_SERVER_VERSION}`;
/** docker compose v2, built from the Go module proxy (Debian 12's docker-compose is 1.29, which predates the compose file's `name:`). */
export const COMPOSE_VERSION = '2.29.7';

type Log = (line: string) => void;

function goBin(): string {
  return join(dockerCacheDir(), '..', 'compose-build', 'bin');
}

/** `go install` of `pkg@version` into the compose build folder, once; bounded, with progress lines. */
function goInstall(pkg: string, version: string, binary: string, log: Log): Promise<string> {
  const dir = join(goBin(), `${binary}-${version}`);
  const target = join(dir, binary);
  if (executable(target)) return Promise.resolve(target);
  mkdirSync(dir, { recursive: true });
  const t0 = Date.now();
  log(`go install ${pkg}@v${version} (a first build takes minutes; later runs reuse it) ...`);
  return new Promise((resolve, reject) => {
    const child = spawn('go', ['install', '-trimpath', `${pkg}@v${version}`], { env: { ...process.env, GOBIN: dir, CGO_ENABLED: '0', GOFLAGS: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const progress = setInterval(() => log(`  still building ${pkg} (${((Date.now() - t0) / 1000).toFixed(0)}s)`), 30_000);
    const timer = setTimeout(() => child.kill('SIGKILL'), 40 * 60_000);
    child.on('close', (code) => {
      clearInterval(progress);
      clearTimeout(timer);
      const built = readdirSync(dir).find((f) => executable(join(dir, f)));
      if (code !== 0 || !built) return reject(new Error(`go install ${pkg}@v${version} failed (exit ${code}):\n${out.trimEnd().split('\n').slice(-15).join('\n')}`));
      // `go install` names the binary after the package's folder (cmd, server, sql): ours by role.
      if (built !== binary) spawn('mv', [join(dir, built), target]).on('close', () => resolve(target));
      else resolve(target);
      log(`go install ${pkg}@v${version}: built in ${((Date.now() - t0) / 1000).toFixed(0)}s`);
    });
  });
}

/** docker compose v2 as a CLI plugin folder for DOCKER_CONFIG (cli-plugins/docker-compose). */
export async function ensureComposePlugin(log: Log = () => undefined): Promise<string> {
  const bin = await goInstall('github.com/docker/compose/v2/cmd', COMPOSE_VERSION, 'docker-compose', log);
  const config = join(goBin(), 'docker-config');
  mkdirSync(join(config, 'cli-plugins'), { recursive: true });
  const link = join(config, 'cli-plugins', 'docker-compose');
  if (!existsSync(link)) await new Promise((r) => spawn('ln', ['-sf', bin, link]).on('close', r));
  writeFileSync(join(config, 'config.json'), '{}\n');
  return config;
}

/** PostgreSQL as the official image behaves for the compose file: POSTGRES_USER/PASSWORD, data in /var/lib/postgresql/data. */
const POSTGRES_ENTRYPOINT = `#!/bin/sh
# Written by kubeairunway (devstack/compose-images.ts): the official postgres image's contract, in short.
set -eu
PGBIN=$(ls -d /usr/lib/postgresql/*/bin | tail -1)
DATA=/var/lib/postgresql/data
mkdir -p "$DATA" /var/run/postgresql
chown -R postgres:postgres "$DATA" /var/run/postgresql
chmod 700 "$DATA"
if [ ! -s "$DATA/PG_VERSION" ]; then
  printf '%s' "\${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > /tmp/pwfile
  chown postgres /tmp/pwfile
  su postgres -c "$PGBIN/initdb -D $DATA -U \${POSTGRES_USER:-postgres} --pwfile=/tmp/pwfile --auth-local=trust --auth-host=scram-sha-256"
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$DATA/pg_hba.conf"
  # As the official image does: a database named POSTGRES_DB, by default the user's name.
  DB="\${POSTGRES_DB:-\${POSTGRES_USER:-postgres}}"
  if [ "$DB" != postgres ]; then
    echo "CREATE DATABASE \\"$DB\\";" | su postgres -c "$PGBIN/postgres --single -D $DATA postgres" > /dev/null
  fi
fi
exec su postgres -c "exec $PGBIN/postgres -D $DATA -c listen_addresses='*'"
`;

/** The Temporal server's config from the variables the compose file sets for temporalio/server (postgres12 only). */
const TEMPORAL_ENTRYPOINT = `#!/bin/sh
# Written by kubeairunway (devstack/compose-images.ts): temporalio/server's environment, for PostgreSQL.
set -eu
: "\${POSTGRES_SEEDS:?}" "\${POSTGRES_USER:?}" "\${POSTGRES_PWD:?}"
PORT="\${DB_PORT:-5432}"
BIND="\${BIND_ON_IP:-0.0.0.0}"
HOST_IP=$(hostname -i 2>/dev/null | awk '{print $1}')
mkdir -p /etc/temporal/config
store() {
  cat <<EOF
      sql:
        pluginName: "\${DB:-postgres12}"
        databaseName: "$1"
        connectAddr: "\${POSTGRES_SEEDS}:\${PORT}"
        connectProtocol: tcp
        user: "\${POSTGRES_USER}"
        password: "\${POSTGRES_PWD}"
        maxConns: 20
        maxIdleConns: 20
        maxConnLifetime: 1h
EOF
}
service() {
  cat <<EOF
  $1:
    rpc:
      grpcPort: $2
      membershipPort: $3
      bindOnIP: "\${BIND}"
EOF
}
{
  echo "log: {stdout: true, level: info}"
  echo "persistence:"
  echo "  numHistoryShards: \${NUM_HISTORY_SHARDS:-4}"
  echo "  defaultStore: default"
  echo "  visibilityStore: visibility"
  echo "  datastores:"
  echo "    default:"; store temporal
  echo "    visibility:"; store temporal_visibility
  echo "global:"
  echo "  membership: {maxJoinDuration: 30s, broadcastAddress: \\"\${HOST_IP:-127.0.0.1}\\"}"
  echo "services:"
  service frontend 7233 6933; echo "      httpPort: 7243"
  service history 7234 6934
  service matching 7235 6935
  service worker 7239 6939
  echo "clusterMetadata:"
  echo "  enableGlobalNamespace: false"
  echo "  failoverVersionIncrement: 10"
  echo "  masterClusterName: active"
  echo "  currentClusterName: active"
  echo "  clusterInformation:"
  echo "    active: {enabled: true, initialFailoverVersion: 1, rpcName: frontend, rpcAddress: \\"127.0.0.1:7233\\", httpAddress: \\"127.0.0.1:7243\\"}"
  echo "dcRedirectionPolicy: {policy: noop}"
  echo "archival: {history: {state: disabled}, visibility: {state: disabled}}"
  echo "namespaceDefaults: {archival: {history: {state: disabled}, visibility: {state: disabled}}}"
  echo "dynamicConfigClient: {filepath: \\"/etc/temporal/\${DYNAMIC_CONFIG_FILE_PATH:-config/dynamicconfig/development-sql.yaml}\\", pollInterval: 10s}"
} > /etc/temporal/config/docker.yaml
cd /etc/temporal
exec temporal-server --root /etc/temporal --config config --env docker start
`;

/** A folder of small files for the images' build contexts. */
function contextFile(name: string, text: string): string {
  const dir = join(dockerCacheDir(), 'compose-files');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), text, { mode: 0o755 });
  return join(dir, name);
}

/** PostgreSQL from Debian's package, keeping the official image's contract the compose file uses. */
export async function ensurePostgresImage(engine: DockerEngine, log: Log = () => undefined): Promise<string> {
  const base = await ensureNodeBaseImage(engine, log);
  return ensureDerivedImage(
    engine,
    LOCAL_POSTGRES_IMAGE,
    [
      `FROM ${base}`,
      aptInstall('postgresql'),
      // The compose file's health check runs pg_isready by name.
      'RUN ln -s "$(ls -d /usr/lib/postgresql/*/bin | tail -1)/pg_isready" /usr/local/bin/pg_isready',
      'COPY docker-entrypoint.sh /usr/local/bin/docker-entrypoint.sh',
      'VOLUME /var/lib/postgresql/data',
      'EXPOSE 5432',
      'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]',
    ],
    { files: { 'docker-entrypoint.sh': contextFile('postgres-entrypoint.sh', POSTGRES_ENTRYPOINT) }, log },
  );
}

/** The Temporal server and admin-tools images (server and SQL tool built from the Go module proxy). */
export async function ensureTemporalImages(engine: DockerEngine, log: Log = () => undefined): Promise<{ temporal: string; adminTools: string }> {
  const base = await ensureNodeBaseImage(engine, log);
  const server = await goInstall('go.temporal.io/server/cmd/server', TEMPORAL_SERVER_VERSION, 'temporal-server', log);
  const sqlTool = await goInstall('go.temporal.io/server/cmd/tools/sql', TEMPORAL_SERVER_VERSION, 'temporal-sql-tool', log);
  const cli = resolveTool('temporal')?.path;
  if (!cli) throw new Error('no Temporal CLI in the tool cache: run `node scripts/setup.mjs`');
  const schema = await temporalSchemaDir();
  const temporal = await ensureDerivedImage(
    engine,
    LOCAL_TEMPORAL_IMAGE,
    [
      `FROM ${base}`,
      // nc for the compose file's health check.
      aptInstall('netcat-openbsd'),
      'COPY temporal-server /usr/local/bin/temporal-server',
      'COPY entrypoint.sh /usr/local/bin/temporal-entrypoint.sh',
      'WORKDIR /etc/temporal',
      'EXPOSE 7233',
      'ENTRYPOINT ["/usr/local/bin/temporal-entrypoint.sh"]',
    ],
    { files: { 'temporal-server': server, 'entrypoint.sh': contextFile('temporal-entrypoint.sh', TEMPORAL_ENTRYPOINT) }, log },
  );
  const adminTools = await ensureDerivedImage(
    engine,
    LOCAL_ADMINTOOLS_IMAGE,
    [`FROM ${base}`, 'COPY temporal-sql-tool temporal /usr/local/bin/', 'COPY schema /etc/temporal/schema', 'CMD ["sh"]'],
    { files: { 'temporal-sql-tool': sqlTool, temporal: cli }, dirs: { schema }, log },
  );
  return { temporal, adminTools };
}

/** The three images, built once each (later runs find them by tag). */
export async function ensureComposeImages(engine: DockerEngine, log: Log = () => undefined): Promise<{ postgres: string; temporal: string; adminTools: string }> {
  const postgres = await ensurePostgresImage(engine, log);
  return { postgres, ...(await ensureTemporalImages(engine, log)) };
}

/** The server module's SQL schemas (in the Go module cache once the server is built). */
async function temporalSchemaDir(): Promise<string> {
  const modCache = await new Promise<string>((resolve, reject) => {
    const child = spawn('go', ['env', 'GOMODCACHE'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error('go env GOMODCACHE failed'))));
  });
  const dir = join(modCache, 'go.temporal.io', `server@v${TEMPORAL_SERVER_VERSION}`, 'schema');
  if (!existsSync(dir)) throw new Error(`no Temporal schemas at ${dir}`);
  return dir;
}
