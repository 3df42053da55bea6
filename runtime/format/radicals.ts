/** The 214 Kangxi radicals as the data names them: by number, as unified ideographs (docs/rules.md "Records"). */

/** How many Kangxi radicals there are: `radical_number` runs from 1 to this. */
export const RADICAL_COUNT = 214;

const CHARACTERS: string[] = [];

/**
 * The Kangxi radical `n` as a unified ideograph (85 → 水, not the radical symbol ⽔): NFKC of
 * U+2F00 + n − 1, for all 214 the unified ideograph Unicode's `CJKRadicals.txt` lists. Each is
 * normalised once (214 possible answers for 8,525 records).
 */
export function radicalCharacter(radicalNumber: number): string {
  let character = CHARACTERS[radicalNumber];
  if (character === undefined) {
    character = String.fromCodePoint(0x2f00 + radicalNumber - 1).normalize("NFKC");
    CHARACTERS[radicalNumber] = character;
  }
  return character;
}
