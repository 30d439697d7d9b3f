/** A set that forgets its oldest entries beyond `capacity`: process memory stays bounded however many objects pass through. */
export class BoundedSet {
  private readonly entries = new Set<string>();

  constructor(private readonly capacity: number) {}

  has(key: string): boolean {
    return this.entries.has(key);
  }

  add(key: string): void {
    this.entries.delete(key);
    this.entries.add(key);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.values().next().value!);
  }
}
