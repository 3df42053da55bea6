/** Strings packed in typed arrays, and typed arrays cut from one scratch buffer (runtime/format/packedStrings.ts). */
import { describe, expect, test } from "vitest";
import { Packer, Scratch, packStrings, unitsToString, unpack } from "../../runtime/format/packedStrings.ts";

describe("packed strings", () => {
  test("give back each string, astral and empty ones included", () => {
    const values = ["水道", "", "𠀋水", "가,나"];
    const packed = packStrings(values);
    expect(values.map((_, p) => unpack(packed, p))).toEqual(values);
    expect([...packed.starts]).toEqual([0, 2, 2, 5, 8]);
  });

  test("a packer sized too small grows and loses nothing", () => {
    const packer = new Packer(1, 1);
    const word = "下水道管";
    for (let n = 0; n < 1000; n++) {
      for (const unit of word) packer.push(unit.charCodeAt(0));
      packer.close();
    }
    const packed = packer.packed();
    expect(packed.starts).toHaveLength(1001);
    expect(unpack(packed, 999)).toBe(word);
    expect(unitsToString(packed.units)).toBe(word.repeat(1000));
  });

  test("a long text is made whole (longer than one call's arguments)", () => {
    const units = Uint16Array.from({ length: 200_000 }, (_, i) => 0xac00 + (i % 11_172));
    const text = unitsToString(units);
    expect(text).toHaveLength(200_000);
    expect(text.charCodeAt(199_999)).toBe(0xac00 + (199_999 % 11_172));
    // A runtime whose TextDecoder does not read UTF-16 gets the same text a chunk at a time.
    expect(unitsToString(units, 0, units.length, null)).toBe(text);
    expect(unitsToString(units, 5, 9000, null)).toBe(text.slice(5, 9000));
    expect(unitsToString(units, 3, 8, null)).toBe(text.slice(3, 8));
  });
});

describe("a scratch buffer", () => {
  test("cuts the arrays it was sized for from one buffer, each starting on 8 bytes, and makes the rest on their own", () => {
    const scratch = Scratch.sized([6, 8, 16]);
    const a = scratch.uint16(3);
    const b = scratch.uint32(2);
    const c = scratch.float64(2);
    expect(a.buffer).toBe(b.buffer);
    expect(b.buffer).toBe(c.buffer);
    expect(a.buffer.byteLength).toBe(32);
    expect([a.byteOffset, b.byteOffset, c.byteOffset]).toEqual([0, 8, 16]);
    const beyond = scratch.uint32(1);
    expect(beyond.buffer).not.toBe(a.buffer);
    a.fill(0xffff);
    expect([...b]).toEqual([0, 0]);
  });
});
