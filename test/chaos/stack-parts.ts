// The local stack's servers as chaos targets: SIGKILLed by process id; the stack's own supervisor
// (`supervise: true`) starts them again on the same port with the same data, as `npm run dev` does, and
// "started" here means the supervisor says the server is back.
import type { Stack } from '../../devstack/stack.ts';
import type { Killable } from './product-process.ts';

/** A supervised stack server, by its process name (`temporal`, `kube-apiserver`). */
export function stackServer(stack: Stack, processName: string): Killable {
  const current = () => stack.processes.find((p) => p.name === processName);
  return {
    name: processName,
    get running() {
      return current()?.exited === undefined && stack.health().ok;
    },
    async kill() {
      const proc = current();
      if (!proc || proc.exited) return;
      await new Promise<void>((resolve) => {
        proc.child.once('exit', () => resolve());
        process.kill(proc.pid, 'SIGKILL');
      });
    },
    async start() {
      const deadline = Date.now() + 120_000;
      while (!this.running) {
        if (Date.now() > deadline) throw new Error(`${processName} not back within 120 s: ${JSON.stringify(stack.health().down)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
