// Upstream CRD files are megabytes of YAML (KubeRay's RayJob 1.3 MB, Dynamo's DGD 1.6 MB), and the `yaml`
// library takes seconds per file to parse them (20 s for one test stack's set on a busy machine). Each
// file's documents are kept as JSON in the tools cache, keyed by the file's content hash, so only the
// first start after a file changes pays for parsing.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { toolsCacheDir } from '../tools/resolve.ts';

/** The documents of a YAML file as plain values (null for an empty document); broken YAML throws naming the file. */
export function readYamlDocuments(file: string): unknown[] {
  const text = readFileSync(file, 'utf8');
  const cached = join(toolsCacheDir(), 'parsed-yaml', `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(readFileSync(cached, 'utf8')) as unknown[];
  } catch {
    // Not cached yet (or unreadable): parse.
  }
  const docs = parseAllDocuments(text).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`${file}: not valid YAML: ${doc.errors[0]!.message}`);
    return doc.toJS() as unknown;
  });
  try {
    mkdirSync(join(toolsCacheDir(), 'parsed-yaml'), { recursive: true });
    const partial = `${cached}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(docs));
    renameSync(partial, cached);
  } catch {
    // A read-only cache only costs the next start the parse again.
  }
  return docs;
}
