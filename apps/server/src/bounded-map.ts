/**
 * A Map that holds at most `limit` entries: writing one more forgets the entry written longest ago. The
 * process-wide caches (parsed definitions, techniques by content, prepared statements) use it so a library that
 * keeps growing never grows the server's memory with it. Re-setting a key on a hit (delete, then set) makes it
 * the newest, for least-recently-used order.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly #limit: number;

  constructor(limit: number) {
    super();
    this.#limit = limit;
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    if (this.size > this.#limit) this.delete(this.keys().next().value as K);
    return this;
  }
}
