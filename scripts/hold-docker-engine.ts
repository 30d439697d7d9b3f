// Holds the private Docker engine (devstack/docker.ts) for one `npm test`: started here before the test
// runs, so every test file that needs it joins it and none stops it under another running beside it; stopped
// when the runner closes this process's standard input (also when the runner dies). Prints one line,
// `ready` or `unavailable: <why>`, then the engine's own lines.
import { dockerUnavailable, startDocker } from '../devstack/docker.ts';

const say = (line: string) => process.stdout.write(`${line}\n`);

const unavailable = dockerUnavailable();
if (unavailable) {
  say(`unavailable: ${unavailable}`);
  process.exit(0);
}
const engine = await startDocker({ log: say });
say('ready');
// Ctrl-C reaches the whole terminal group: the test files stop their containers first; the runner then
// closes standard input once they are done.
process.on('SIGINT', () => undefined);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await engine.stop();
  say('stopped');
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.on('close', stop);
process.on('SIGTERM', stop);
process.stdin.resume();
