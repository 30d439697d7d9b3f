// Entry point of the `kubeairunway` command (bin/kubeairunway.js runs its compiled form). The commands
// are in command-index.ts, each loaded only when a call runs it.

import { runIndexedCli } from './command-index.ts';
import { exitWhenAnswered } from './exit-when-answered.ts';
import { processIO } from './io.ts';

exitWhenAnswered(await runIndexedCli(process.argv.slice(2), processIO()));
