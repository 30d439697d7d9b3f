// What a command may touch outside itself. Commands receive it instead of using `process` and `fs`
// directly, so tests run them in-process with fake streams and files.

import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';

export interface CliIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readStdin(): Promise<string>;
  readFile(path: string): Promise<string>;
  /** Files of a directory argument (`-f dir/`), or undefined when `path` is not a directory. */
  listManifestFiles(path: string): Promise<string[] | undefined>;
}

const MANIFEST_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    readFile: (path) => readFile(path, 'utf8'),
    listManifestFiles: async (path) => {
      const info = await stat(path).catch(() => undefined);
      if (!info?.isDirectory()) return undefined;
      const entries = await readdir(path);
      return entries
        .filter((name) => MANIFEST_EXTENSIONS.has(extname(name)))
        .sort()
        .map((name) => join(path, name));
    },
  };
}
