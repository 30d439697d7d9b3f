// The protobuf wire format, as far as the light Temporal reader needs it: writing strings and nested
// messages, reading any message into its fields by number. Field numbers are the Temporal API's
// (temporal/api/**/*.proto); the reader names each one where it uses it.

/** A message under construction: `[field number, string | nested bytes]` in order. */
export type Fields = readonly (readonly [number, string | Uint8Array])[];

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** Encodes length-delimited fields (strings as UTF-8, nested messages as their bytes). */
export function encode(fields: Fields): Buffer {
  const parts: Buffer[] = [];
  for (const [number, value] of fields) {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
    parts.push(Buffer.from([...varint((number << 3) | 2), ...varint(bytes.length)]), bytes);
  }
  return Buffer.concat(parts);
}

/** A decoded message: each field number's values in order (varints as numbers, length-delimited as bytes). */
export type Decoded = Map<number, (number | Buffer)[]>;

export function decode(buf: Buffer): Decoded {
  const fields: Decoded = new Map();
  let pos = 0;
  const readVarint = (): number => {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (pos >= buf.length) throw new Error('truncated protobuf varint');
      const b = buf[pos++]!;
      result += (b & 0x7f) * scale;
      if ((b & 0x80) === 0) return result;
      scale *= 128;
    }
  };
  while (pos < buf.length) {
    const key = readVarint();
    const number = Math.floor(key / 8);
    const type = key & 7;
    let value: number | Buffer;
    if (type === 0) value = readVarint();
    else if (type === 2) {
      const length = readVarint();
      if (pos + length > buf.length) throw new Error('truncated protobuf field');
      value = buf.subarray(pos, pos + length);
      pos += length;
    } else if (type === 1) {
      value = buf.subarray(pos, pos + 8);
      pos += 8;
    } else if (type === 5) {
      value = buf.subarray(pos, pos + 4);
      pos += 4;
    } else throw new Error(`unsupported protobuf wire type ${type}`);
    const list = fields.get(number);
    if (list) list.push(value);
    else fields.set(number, [value]);
  }
  return fields;
}

/** The first length-delimited value of a field, or undefined. */
export function bytesField(m: Decoded, number: number): Buffer | undefined {
  const v = m.get(number)?.[0];
  return Buffer.isBuffer(v) ? v : undefined;
}

export function messageField(m: Decoded, number: number): Decoded | undefined {
  const b = bytesField(m, number);
  return b ? decode(b) : undefined;
}

export function varintField(m: Decoded, number: number): number | undefined {
  const v = m.get(number)?.[0];
  return typeof v === 'number' ? v : undefined;
}

/** A protobuf `map<string, V>`: repeated entries with the key in field 1 and the value in field 2. */
export function mapField(m: Decoded, number: number): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const entry of m.get(number) ?? []) {
    if (!Buffer.isBuffer(entry)) continue;
    const e = decode(entry);
    out.set(bytesField(e, 1)?.toString('utf8') ?? '', bytesField(e, 2) ?? Buffer.alloc(0));
  }
  return out;
}
