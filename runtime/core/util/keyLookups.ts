/**
 * A quota store's key lookups by hash (the SQLite and Redis stores): the records of keys, up to
 * `KEY_RECORD_BYTES` (enough for every key in use), and apart from them the hashes no key has, up
 * to `SHARED_LOOKUPS.unknownKeys` (part of `CACHE_MB`), which start over by themselves once past it.
 * A flood of made-up keys then costs at most the latter and never pushes the keys in use out.
 */
import type { KeyRecord } from "../quota/store.ts";
import { KEY_RECORD_BYTES, SHARED_LOOKUPS, keyRecordBytes } from "./cacheBudget.ts";
import { CountedMap } from "./countedMap.ts";

export class KeyLookups {
  private readonly records = new CountedMap<string, KeyRecord>(keyRecordBytes);
  private readonly unknown = new CountedMap<string, null>(keyRecordBytes);

  /** The record of the key with `hash`; null: no key has it; undefined: not known here. */
  get(hash: string): KeyRecord | null | undefined {
    return this.records.get(hash) ?? this.unknown.get(hash);
  }

  set(hash: string, record: KeyRecord | null): void {
    if (record !== null) {
      this.records.set(hash, record);
      return;
    }
    if (this.unknown.bytes >= SHARED_LOOKUPS.unknownKeys) this.unknown.clear();
    this.unknown.set(hash, null);
  }

  /** Whether the records have reached their bound (the store starts them over). */
  get full(): boolean {
    return this.records.bytes >= KEY_RECORD_BYTES;
  }

  clear(): void {
    this.records.clear();
    this.unknown.clear();
  }
}
