/**
 * Whether every field we render is present in the live object with the same value. Fields the live
 * object has beyond ours (defaults the API server or the upstream operator filled in, status) are not
 * drift; a value of ours that someone changed or removed is.
 */
export function containsRendered(rendered: unknown, live: unknown): boolean {
  if (Array.isArray(rendered)) {
    return Array.isArray(live) && live.length === rendered.length && rendered.every((item, i) => containsRendered(item, live[i]));
  }
  if (rendered !== null && typeof rendered === 'object') {
    // The API server drops empty maps, so an empty map of ours matches an absent field.
    if (live === undefined && Object.keys(rendered).length === 0) return true;
    if (live === null || typeof live !== 'object' || Array.isArray(live)) return false;
    return Object.entries(rendered).every(([key, value]) => containsRendered(value, (live as Record<string, unknown>)[key]));
  }
  return rendered === live;
}

/** The parts of a rendered object that drift detection compares: everything but server-managed metadata. */
export function comparable(obj: { metadata?: object; [k: string]: unknown }): unknown {
  const { metadata, ...rest } = obj;
  const m = (metadata ?? {}) as { labels?: unknown; annotations?: unknown };
  return { ...rest, metadata: { labels: m.labels ?? {}, annotations: m.annotations ?? {} } };
}
