import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeHolder, portHolder } from './port-holder.ts';
import { freePort, portIsFree } from './ports.ts';

/**
 * Every port of the local stack, chosen once before anything starts and kept for the run (a restarted
 * server comes back on its own address, so clients reconnect) and across runs (recorded in the state
 * folder). People address the Temporal, UI and metrics ports, so those are fixed: when one is taken the
 * start fails naming the process that holds it, rather than moving to a port no README command knows.
 */
export interface StackPorts {
  etcdClient: number;
  etcdPeer: number;
  kubeApiServer: number;
  kubeControllerManager: number;
  temporal: number;
  temporalUi: number;
  temporalHttp: number;
  temporalMetrics: number;
  /** RabbitMQ's AMQP listener, its Erlang distribution port and its own epmd. */
  rabbitmq: number;
  rabbitmqDist: number;
  rabbitmqEpmd: number;
}

export type PortName = keyof StackPorts;

const ALL: readonly PortName[] = [
  'etcdClient',
  'etcdPeer',
  'kubeApiServer',
  'kubeControllerManager',
  'temporal',
  'temporalUi',
  'temporalHttp',
  'temporalMetrics',
  'rabbitmq',
  'rabbitmqDist',
  'rabbitmqEpmd',
];
const FILE = 'ports.json';

export class PortTakenError extends Error {}

/** What to say when a port someone relies on is taken: the holder, and how to choose another. */
export function portTakenMessage(what: string, port: number, holder: string, flag: string | undefined): string {
  return `${what} port ${port} is taken by ${holder}. Stop that process${flag ? `, or choose another port with ${flag}` : ''}.`;
}

/**
 * `fixed` ports must be exactly these (with the flag that changes each, for the message); the others
 * keep the port recorded by an earlier run when it is still free, else get a free one (said in a line).
 */
export async function planPorts(
  stateDir: string,
  fixed: Partial<Record<PortName, { port: number; what: string; flag?: string }>>,
  log: (line: string) => void,
): Promise<StackPorts> {
  const recorded = readRecorded(stateDir);
  const plan: Partial<StackPorts> = {};
  for (const name of ALL) {
    const want = fixed[name];
    if (want) {
      if (!(await portIsFree(want.port))) {
        const holder = portHolder(want.port);
        throw new PortTakenError(portTakenMessage(want.what, want.port, holder ? describeHolder(holder) : 'a process this user cannot see', want.flag));
      }
      plan[name] = want.port;
      continue;
    }
    const earlier = recorded[name];
    if (earlier !== undefined && (await portIsFree(earlier))) {
      plan[name] = earlier;
      continue;
    }
    plan[name] = await freePort();
    if (earlier !== undefined) {
      const holder = portHolder(earlier);
      log(`${name} port ${earlier} is taken by ${holder ? describeHolder(holder) : 'another process'}; using ${plan[name]}`);
    }
  }
  writeFileSync(join(stateDir, FILE), JSON.stringify(plan, null, 2));
  return plan as StackPorts;
}

function readRecorded(stateDir: string): Partial<StackPorts> {
  const file = join(stateDir, FILE);
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<StackPorts>;
  } catch {
    return {};
  }
}
