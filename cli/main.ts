// Entry point of the `kubeairunway` command (bin/kubeairunway.js, `npm run kubeairunway --`).
// To add a command: import its registration and add it to the list.

import { devCommand } from './commands/dev.ts';
import { explainCommand } from './commands/explain.ts';
import { historyCommand } from './commands/history.ts';
import { controllerCommand, providerCommand } from './commands/install.ts';
import { pauseCommand, resumeCommand } from './commands/pause.ts';
import { renderCommand } from './commands/render.ts';
import { retryCommand } from './commands/retry.ts';
import { runCommand } from './commands/run.ts';
import { statusCommand } from './commands/status.ts';
import { validateCommand } from './commands/validate.ts';
import { processIO } from './io.ts';
import { runCli, type CommandRegistration } from './program.ts';

const commands: readonly CommandRegistration[] = [
  validateCommand,
  renderCommand,
  explainCommand,
  devCommand,
  runCommand,
  statusCommand,
  historyCommand,
  retryCommand,
  pauseCommand,
  resumeCommand,
  controllerCommand,
  providerCommand,
];

process.exitCode = await runCli(process.argv.slice(2), processIO(), commands);
