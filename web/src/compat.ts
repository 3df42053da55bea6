/** CJK compatibility ideographs: code points kept for round-tripping old character sets, each the same character as a unified one. */

/** The blocks of compatibility ideographs (U+F900–U+FAFF and the supplement U+2F800–U+2FA1F). */
const BLOCKS: readonly [number, number][] = [
  [0xf900, 0xfaff],
  [0x2f800, 0x2fa1f],
];

/**
 * The unified ideograph a compatibility ideograph stands for (its NFC form, e.g. 樂 U+F914 → 樂 U+6A02),
 * or null for any other character. Results show both (菱 twice for "water"), and this is what tells them apart.
 */
export function unifiedOf(character: string): string | null {
  const code = character.codePointAt(0) ?? 0;
  if (!BLOCKS.some(([low, high]) => code >= low && code <= high)) return null;
  const unified = character.normalize("NFC");
  return unified === character ? null : unified;
}

/** `U+6A02` for 樂: how the page names a code point. */
export function codePointOf(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
}
