import { Backoff } from '../kube/backoff.ts';
import { stopProcess, type ManagedProcess } from './process.ts';

/** One server the supervisor keeps running: `start` starts it and resolves once it serves. */
export interface PartSpec {
  name: string;
  start(): Promise<ManagedProcess>;
}

export interface PartDown {
  name: string;
  /** Epoch ms when it went down. */
  since: number;
  reason: string;
}

export interface StackHealth {
  ok: boolean;
  down: PartDown[];
}

interface Part {
  spec: PartSpec;
  proc: ManagedProcess;
  down?: PartDown;
  reviving?: Promise<void>;
}

/**
 * Keeps the local stack's servers running: a server that exits while the stack runs is started again
 * on the same ports and data (its start function fixes them), with capped, jittered backoff between
 * failed attempts. One line when a server dies and one when it is back; `health()` names what is down.
 */
export class Supervisor {
  private readonly parts: Part[] = [];
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly log: (line: string) => void,
    /** Called with every current process id whenever one changes (the pid file for reaping). */
    private readonly onPids: (pids: number[]) => void = () => {},
    /** Restart a server that dies; when false a death is only reported (and shown by `health()`). */
    private readonly restart = true,
  ) {}

  /** Starts a part for the first time (a failure here fails the caller's start) and watches it from then on. */
  async add(spec: PartSpec): Promise<ManagedProcess> {
    const proc = await spec.start();
    if (this.stopping) {
      await stopProcess(proc);
      throw new Error(`stopped while ${spec.name} was starting`);
    }
    const part: Part = { spec, proc };
    this.parts.push(part);
    this.watch(part, proc);
    this.onPids(this.pids());
    return proc;
  }

  pids(): number[] {
    return this.parts.map((p) => p.proc.pid);
  }

  processes(): ManagedProcess[] {
    return this.parts.map((p) => p.proc);
  }

  health(): StackHealth {
    const down = this.parts.flatMap((p) => (p.down ? [p.down] : []));
    return { ok: down.length === 0, down };
  }

  /** Stops every part in reverse start order, and any restart under way; nothing is restarted after this. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    for (const part of [...this.parts].reverse()) await stopProcess(part.proc);
    await Promise.all(this.parts.map((p) => p.reviving));
  }

  private watch(part: Part, proc: ManagedProcess): void {
    proc.child.once('exit', () => {
      if (this.stopping || part.proc !== proc) return;
      part.down = { name: part.spec.name, since: Date.now(), reason: proc.exited ?? 'exited' };
      if (!this.restart) {
        this.log(`${part.spec.name} exited (${part.down.reason}); this stack does not restart its servers`);
        return;
      }
      this.log(`${part.spec.name} exited (${part.down.reason}); restarting it on the same port and data`);
      part.reviving = this.revive(part).finally(() => (part.reviving = undefined));
    });
  }

  private async revive(part: Part): Promise<void> {
    const backoff = new Backoff({ initialMs: 500, maxMs: 30_000 });
    let reported = false;
    while (!this.stopping) {
      await this.sleep(backoff.next());
      if (this.stopping) return;
      let proc: ManagedProcess;
      try {
        proc = await part.spec.start();
      } catch (err) {
        // Said once per outage: a crash loop retries quietly, slower and slower, until it comes back.
        if (!reported && !this.stopping) this.log(`${part.spec.name} did not come back yet (${(err as Error).message.split('\n')[0]!.replace(/\. Last lines of (\S+):$/, '; see $1')}); retrying with backoff`);
        reported = true;
        continue;
      }
      if (this.stopping) {
        await stopProcess(proc);
        return;
      }
      const seconds = ((Date.now() - part.down!.since) / 1000).toFixed(1);
      part.proc = proc;
      part.down = undefined;
      this.watch(part, proc);
      this.onPids(this.pids());
      this.log(`${part.spec.name} is back after ${seconds}s (pid ${proc.pid})`);
      return;
    }
  }

  /** A delay that `stop()` cuts short. */
  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const previous = this.wake;
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        previous?.();
        done();
      };
    });
  }
}
