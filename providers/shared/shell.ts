// Dynamo runs workers through `/bin/sh -c "<one command line>"` (seed 001 Examples 1 and 3), so every
// user-provided word (model id, engine.args values) is quoted: a value can never become a second command.

const SAFE_WORD = /^[A-Za-z0-9_\-.,:/=@%+]+$/;

export function shellQuote(word: string): string {
  if (SAFE_WORD.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
