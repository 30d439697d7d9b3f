// Reading manifests: `-f FILE`, `-f DIR` (its .yaml/.yml/.json files) or `-f -` (stdin), each possibly
// holding several YAML documents. Every document keeps where it came from for messages.

import { parseAllDocuments } from 'yaml';
import { PROVIDER_CONFIG_KIND } from '../api/constants.ts';
import { isPlainObject } from '../api/overrides.ts';
import { CliError } from './errors.ts';
import type { CliIO } from '../cli/io.ts';

export interface ManifestDocument {
  /** "file.yaml" or "file.yaml#2" (1-based document index when the file holds several). */
  source: string;
  object: Record<string, unknown>;
}

export async function readManifests(io: CliIO, paths: readonly string[]): Promise<ManifestDocument[]> {
  const documents: ManifestDocument[] = [];
  for (const path of paths) {
    for (const file of await expand(io, path)) {
      documents.push(...parseManifests(await readText(io, file), file === '-' ? 'stdin' : file));
    }
  }
  return documents;
}

async function expand(io: CliIO, path: string): Promise<string[]> {
  if (path === '-') return ['-'];
  const files = await io.listManifestFiles(path);
  if (files === undefined) return [path];
  if (files.length === 0) throw new CliError(`Directory ${path} contains no .yaml, .yml or .json files.`);
  return files;
}

async function readText(io: CliIO, file: string): Promise<string> {
  if (file === '-') return io.readStdin();
  try {
    return await io.readFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String((error as Error).message);
    throw new CliError(`Cannot read ${file}: ${why}.`);
  }
}

/** Parses every YAML document of a text; empty documents (a trailing `---`) are skipped. */
export function parseManifests(text: string, name: string): ManifestDocument[] {
  const parsed = parseAllDocuments(text);
  const docs = Array.isArray(parsed) ? parsed : [parsed];
  const several = docs.length > 1;
  const out: ManifestDocument[] = [];
  docs.forEach((doc, index) => {
    const source = several ? `${name}#${index + 1}` : name;
    const problem = doc.errors[0];
    if (problem) {
      const line = problem.linePos?.[0]?.line;
      throw new CliError(`${source} is not valid YAML${line ? ` (line ${line})` : ''}: ${firstLine(problem.message)}.`);
    }
    const value: unknown = doc.toJS({ maxAliasCount: 100 });
    if (value == null) return;
    if (!isPlainObject(value)) throw new CliError(`${source} is not a Kubernetes object (expected a mapping with apiVersion and kind).`);
    out.push({ source, object: value });
  });
  return out;
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/\.$/, '');
}

/** A document's kind; undefined when it names none. */
export function kindOf(doc: ManifestDocument): string | undefined {
  return typeof doc.object.kind === 'string' ? doc.object.kind : undefined;
}

export function describeObject(doc: ManifestDocument): string {
  const meta = isPlainObject(doc.object.metadata) ? doc.object.metadata : {};
  const kind = typeof doc.object.kind === 'string' ? doc.object.kind : 'object';
  const name = typeof meta.name === 'string' ? meta.name : '(unnamed)';
  if (kind === PROVIDER_CONFIG_KIND) return `${kind} ${name}`;
  // Namespaced objects without a namespace land in "default", as with kubectl.
  const namespace = typeof meta.namespace === 'string' && meta.namespace ? meta.namespace : 'default';
  return `${kind} ${namespace}/${name}`;
}
