/** RFC 3339 without fractions, as the API server's metav1.Time serializes: for conditions and heartbeats. */
export function kubeNow(date = new Date()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
