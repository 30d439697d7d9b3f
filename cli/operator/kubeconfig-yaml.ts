// Reads a kubeconfig without loading the `yaml` package, which costs a CLI call about 40 ms of CPU (its
// sixty-odd CommonJS files). Kubeconfigs are written by programs (kubectl, cloud CLIs, kind, this
// repository's devstack) in YAML's plainest block style: mappings, sequences of mappings, plain or
// quoted one-line scalars, `{}` and `[]`. That subset is read here; anything else (anchors, tags, block
// scalars, non-empty flow collections, several documents, tabs, multi-line scalars) makes it give up,
// and the caller parses the file with the `yaml` package instead. kubeconfig-yaml.test.ts compares
// both on the kubeconfigs people have.

/** The text uses YAML beyond the subset read here. */
export class BeyondSubset extends Error {}

interface Line {
  indent: number;
  text: string;
  no: number;
}

export function parseKubeconfigYaml(source: string): unknown {
  const lines: Line[] = [];
  let documents = 0;
  source.split(/\r?\n/).forEach((raw, no) => {
    if (/^\s*(#.*)?$/.test(raw)) return;
    if (raw.startsWith('---')) {
      if (++documents > 1 || lines.length > 0 || raw.trim() !== '---') throw new BeyondSubset(`line ${no + 1}: a second document or content after ---`);
      return;
    }
    if (raw.startsWith('...')) throw new BeyondSubset(`line ${no + 1}: document end`);
    const indent = raw.search(/\S/);
    if (/\t/.test(raw.slice(0, indent))) throw new BeyondSubset(`line ${no + 1}: tab indentation`);
    lines.push({ indent, text: raw.slice(indent).trimEnd(), no: no + 1 });
  });
  if (lines.length === 0) return null;
  const [value, next] = block(lines, 0, lines[0]!.indent);
  if (next < lines.length) throw new BeyondSubset(`line ${lines[next]!.no}: unexpected indentation`);
  return value;
}

const isItem = (text: string) => text === '-' || text.startsWith('- ');

/** The node whose lines start at `i`, all at indent `indent` (deeper lines belong to its children). */
function block(lines: Line[], i: number, indent: number): [unknown, number] {
  return isItem(lines[i]!.text) ? sequence(lines, i, indent) : mapping(lines, i, indent);
}

function sequence(lines: Line[], i: number, indent: number): [unknown[], number] {
  const items: unknown[] = [];
  while (i < lines.length && lines[i]!.indent === indent && isItem(lines[i]!.text)) {
    const line = lines[i]!;
    const rest = line.text.slice(1).trimStart();
    if (rest === '') {
      // The item's node is on the following, deeper lines.
      if (i + 1 < lines.length && lines[i + 1]!.indent > indent) {
        const [value, next] = block(lines, i + 1, lines[i + 1]!.indent);
        items.push(value);
        i = next;
      } else {
        items.push(null);
        i++;
      }
      continue;
    }
    // `- key: value` opens a mapping at the column of `key`; its further keys are indented to it.
    const column = indent + (line.text.length - rest.length);
    if (keyOf(rest) !== undefined || isItem(rest)) {
      const copy = [...lines];
      copy[i] = { indent: column, text: rest, no: line.no };
      const [value, next] = block(copy, i, column);
      items.push(value);
      // The lines after i are shared with `copy`, so `next` indexes both.
      i = next;
    } else {
      items.push(scalar(rest, line.no));
      i++;
    }
  }
  return [items, i];
}

function mapping(lines: Line[], i: number, indent: number): [Record<string, unknown>, number] {
  const out: Record<string, unknown> = {};
  while (i < lines.length && lines[i]!.indent === indent && !isItem(lines[i]!.text)) {
    const line = lines[i]!;
    const kv = keyOf(line.text);
    if (kv === undefined) throw new BeyondSubset(`line ${line.no}: not a key: value line`);
    const [key, rest] = kv;
    i++;
    if (rest !== '') {
      out[key] = scalar(rest, line.no);
    } else if (i < lines.length && lines[i]!.indent > indent) {
      [out[key], i] = block(lines, i, lines[i]!.indent);
    } else if (i < lines.length && lines[i]!.indent === indent && isItem(lines[i]!.text)) {
      // `key:` followed by `- item` lines at the key's own indentation (how kubectl writes lists).
      [out[key], i] = sequence(lines, i, indent);
    } else {
      out[key] = null;
    }
  }
  return [out, i];
}

/** `key: rest` (rest possibly empty) for a plain or quoted key; undefined when the line is no mapping entry. */
function keyOf(text: string): [string, string] | undefined {
  let key: string;
  let after: string;
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = quotedEnd(text);
    if (end < 0 || text[end + 1] !== ':') return undefined;
    key = String(scalar(text.slice(0, end + 1), 0));
    after = text.slice(end + 2);
  } else {
    const colon = text.search(/:(\s|$)/);
    if (colon <= 0) return undefined;
    key = text.slice(0, colon).trimEnd();
    // Indicators that start something beyond the subset (complex keys, anchors, flows, comments).
    if (/^[?&*!|>%@`{}[\],#]/.test(key) || /\s#/.test(key)) throw new BeyondSubset(`a key '${key.slice(0, 20)}'`);
    after = text.slice(colon + 1);
  }
  if (after !== '' && !/^\s/.test(after)) return undefined;
  return [key, after.trim()];
}

/** Index of the closing quote of a quoted scalar at the start of `text`, or -1. */
function quotedEnd(text: string): number {
  const q = text[0]!;
  for (let i = 1; i < text.length; i++) {
    if (q === '"' && text[i] === '\\') i++;
    else if (text[i] === q) {
      if (q === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return -1;
}

function scalar(text: string, no: number): unknown {
  if (text.startsWith('"') || text.startsWith("'")) {
    const end = quotedEnd(text);
    if (end < 0) throw new BeyondSubset(`line ${no}: a quoted scalar continues on the next line`);
    const tail = text.slice(end + 1).trim();
    if (tail !== '' && !tail.startsWith('#')) throw new BeyondSubset(`line ${no}: text after a quoted scalar`);
    const body = text.slice(1, end);
    if (text[0] === "'") return body.replace(/''/g, "'");
    // JSON's escapes are YAML's common ones; the others (\x, \e, \N, …) are beyond the subset.
    try {
      return JSON.parse(`"${body}"`) as string;
    } catch {
      throw new BeyondSubset(`line ${no}: an escape JSON does not know`);
    }
  }
  const plain = text.replace(/\s+#.*$/, '');
  if (plain === '{}') return {};
  if (plain === '[]') return [];
  if (/^[&*!|>%@`{[]/.test(plain) || /: |\s#/.test(plain)) throw new BeyondSubset(`line ${no}: ${plain.slice(0, 20)}`);
  // YAML 1.2 core schema, as the `yaml` package reads plain scalars by default.
  if (/^(null|Null|NULL|~)$/.test(plain)) return null;
  if (/^(true|True|TRUE)$/.test(plain)) return true;
  if (/^(false|False|FALSE)$/.test(plain)) return false;
  if (/^[-+]?[0-9]+$/.test(plain)) return Number.isSafeInteger(Number(plain)) ? Number(plain) : plain;
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain) || /^0[xo]/.test(plain) || /^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/.test(plain)) {
    throw new BeyondSubset(`line ${no}: a number form left to the yaml package`);
  }
  return plain;
}
