/**
 * A Map that keeps the sum of what its entries cost (`sizeOf`), for a cache that starts over once
 * it holds a given number of bytes.
 */
export class CountedMap<K, V> extends Map<K, V> {
  /** What the entries cost together, as `sizeOf` counts them. */
  bytes = 0;

  constructor(private readonly sizeOf: (key: K, value: V) => number) {
    super();
  }

  override set(key: K, value: V): this {
    const old = super.get(key);
    if (old !== undefined || super.has(key)) this.bytes -= this.sizeOf(key, old as V);
    this.bytes += this.sizeOf(key, value);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    if (!super.has(key)) return false;
    this.bytes -= this.sizeOf(key, super.get(key) as V);
    return super.delete(key);
  }

  override clear(): void {
    this.bytes = 0;
    super.clear();
  }
}
