// A minimal ustar writer, for checkpoint blobs made by hand (the tests cannot make real ones where CRIU
// cannot dump): regular files only, names under 100 bytes.

function field(value: string, length: number): Buffer {
  const b = Buffer.alloc(length);
  b.write(value, 'ascii');
  return b;
}

function octal(n: number, length: number): Buffer {
  return field(`${n.toString(8).padStart(length - 1, '0')}\0`, length);
}

export function tarOf(files: Record<string, string | Buffer>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    const header = Buffer.concat([
      field(name, 100),
      octal(0o644, 8),
      octal(0, 8),
      octal(0, 8),
      octal(data.length, 12),
      octal(0, 12),
      Buffer.from('        '), // the checksum, counted as spaces
      field('0', 1),
      field('', 100),
      field('ustar\u000000', 8),
      field('root', 32),
      field('root', 32),
      octal(0, 8),
      octal(0, 8),
      field('', 155),
      Buffer.alloc(12),
    ]);
    let sum = 0;
    for (const byte of header) sum += byte;
    octal(sum, 7).copy(header, 148);
    header[155] = 0x20;
    parts.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}
