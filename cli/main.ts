// Entry point of the `kubeairunway` command (bin/kubeairunway.js, `npm run kubeairunway --`).
// To add a command: import its registration and add it to the list.

import { devCommand } from './commands/dev.ts';
import { explainCommand } from './commands/explain.ts';
import { renderCommand } from './commands/render.ts';
import { validateCommand } from './commands/validate.ts';
import { processIO } from './io.ts';
import { runCli, type CommandRegistration } from './program.ts';

const commands: readonly CommandRegistration[] = [
  validateCommand,
  renderCommand,
  explainCommand,
  devCommand,
];

process.exitCode = await runCli(process.argv.slice(2), processIO(), commands);
