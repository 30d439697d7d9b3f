// Runs the CLI in-process against an in-memory file system, for tests.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { explainCommand } from '../commands/explain.ts';
import { renderCommand } from '../commands/render.ts';
import { validateCommand } from '../commands/validate.ts';
import type { CliIO } from '../io.ts';
import { runCli, type CommandRegistration } from '../program.ts';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The offline commands with `files` and `stdin`; see `runCommands`. */
export function run(argv: string[], files: Record<string, string> = {}, stdin = ''): Promise<CliRun> {
  return runCommands(argv, [validateCommand, renderCommand, explainCommand], { files, stdin });
}

/**
 * Runs `argv` against the given commands with captured output. Files are looked up in `files` first,
 * then in the repository (so examples/ can be used by path).
 */
export async function runCommands(argv: string[], commands: readonly CommandRegistration[], input: { files?: Record<string, string>; stdin?: string } = {}): Promise<CliRun> {
  const files = input.files ?? {};
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    readStdin: async () => input.stdin ?? '',
    readFile: async (path) => {
      if (Object.hasOwn(files, path)) return files[path]!;
      return readFileSync(join(REPO_ROOT, path), 'utf8');
    },
    listManifestFiles: async (path) => {
      const prefix = `${path.replace(/\/$/, '')}/`;
      const inside = Object.keys(files).filter((f) => f.startsWith(prefix));
      return inside.length > 0 ? inside.sort() : undefined;
    },
  };
  const code = await runCli(argv, io, commands);
  return { code, stdout, stderr };
}

/** A ModelDeployment manifest around a spec. */
export function manifest(name: string, spec: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'ModelDeployment', metadata: { name }, spec, ...extra });
}

/** An InferenceProviderConfig manifest. */
export function providerConfig(name: string, spec: unknown, status?: unknown): string {
  return JSON.stringify({ apiVersion: 'kubeairunway.ai/v1alpha1', kind: 'InferenceProviderConfig', metadata: { name }, spec, ...(status ? { status } : {}) });
}
