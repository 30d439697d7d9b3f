// Placeholders that let the chart generator edit parsed objects and still print them with the yaml
// package: a value hole is a plain token that stands for a scalar and is swapped for template text in
// place; a block hole is a map key (`TOKEN: null`) or a list item (`- TOKEN`) whose whole line is swapped
// for template lines at that line's indentation. Printing real objects and patching tokens keeps every
// untouched field exactly as the install renders it, with no YAML written by hand.

/** Template lines for a block, given the column its first line starts at (for `nindent`). */
export type BlockLines = (column: number) => string[];

export class Holes {
  private readonly values = new Map<string, string>();
  private readonly blocks = new Map<string, BlockLines>();

  /** A token to put where a scalar goes; `template` is the scalar's text in the chart. */
  value(template: string): string {
    const token = `HELMVALUE${this.values.size}X`;
    this.values.set(token, template);
    return token;
  }

  /** A token to use as a map key (with the value null) or as a list item. */
  block(lines: BlockLines): string {
    const token = `HELMBLOCK${this.blocks.size}X`;
    this.blocks.set(token, lines);
    return token;
  }

  /** The printed YAML with every token replaced; throws on a token the printer split or quoted. */
  fill(text: string): string {
    const out = text.split('\n').flatMap((line) => {
      const m = /^( *)(?:- )?(HELMBLOCK\d+X)(?:: null)?$/.exec(line);
      if (!m) return [line];
      const column = m[1]!.length;
      return this.blocks.get(m[2]!)!(column).map((l) => ' '.repeat(column) + l);
    });
    const filled = out.join('\n').replace(/HELMVALUE\d+X/g, (token) => this.values.get(token)!);
    if (/HELM(VALUE|BLOCK)\d+X/.test(filled)) throw new Error(`a placeholder was left in the chart:\n${filled}`);
    return filled;
  }
}

/** `key:` and the value's YAML below it, only when the value is set (Helm's usual `with` … `toYaml`). */
export function withBlock(key: string, value: string): BlockLines {
  return (column) => [`{{- with ${value} }}`, `${key}:`, `  {{- toYaml . | nindent ${column + 2} }}`, '{{- end }}'];
}
