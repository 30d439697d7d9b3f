/**
 * A Map that forgets its least recently set entries beyond `capacity`: what a long-running process
 * remembers per object stays bounded however many objects pass through it.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    this.delete(key);
    super.set(key, value);
    if (this.size > this.capacity) this.delete(this.keys().next().value!);
    return this;
  }
}
