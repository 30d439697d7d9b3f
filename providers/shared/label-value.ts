// Kubernetes label values are at most 63 characters of [A-Za-z0-9._-], starting and ending
// alphanumeric. Object names can be up to 253 characters, so a name is used as-is only when it fits;
// otherwise it is shortened with a hash suffix, which stays stable for the same name.

const LABEL_VALUE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]{0,61}[A-Za-z0-9])?)?$/;

export function labelValue(value: string): string {
  if (LABEL_VALUE.test(value)) return value;
  const hash = fnv1a32(value).toString(16).padStart(8, '0');
  const head = value
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 54)
    .replace(/[^A-Za-z0-9]+$/, '')
    .replace(/^[^A-Za-z0-9]+/, '');
  return head.length > 0 ? `${head}-${hash}` : hash;
}

/** 32-bit FNV-1a over UTF-16 code units: tiny, pure and stable across Node versions. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
