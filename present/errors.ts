// An error meant for the user: one sentence, printed without a stack trace, with an exit code.

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = 'CliError';
  }
}
