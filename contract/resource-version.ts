// Pure, in contract/ because both sides use it: a workflow keeps the newest version it has heard of
// (workflows/engine/seen-version.ts) and a cache read trusts the cache only when it is that new (kube/read-live.ts).

/**
 * Whether `candidate` is at least as new as `minimum`. An etcd-backed API server's resourceVersions are
 * etcd's revision counter: a decimal integer that only grows. Anything else is answered "not known to
 * be", so the caller reads from the API server instead of trusting a cache.
 */
export function isAtLeast(candidate: string | undefined, minimum: string | undefined): boolean {
  if (minimum === undefined || minimum === '') return true;
  if (!candidate || !/^\d+$/.test(candidate) || !/^\d+$/.test(minimum)) return false;
  return candidate.length !== minimum.length ? candidate.length > minimum.length : candidate >= minimum;
}
