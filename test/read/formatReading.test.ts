/** The answer's forms (hangul, paren, ruby) and the text rules of the reader. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { formatReading } from "../../runtime/core/read/formatReading.ts";
import { readText } from "../../runtime/core/read/readText.ts";
import { verbatimTextProblem } from "../../runtime/core/http/verbatimText.ts";
import { wordPairs, wordStoreSource } from "../../runtime/core/read/wordStoreSource.ts";

const characters = new Map(Object.entries({ 大: ["대"], 韓: ["한"], 民: ["민"], 國: ["국"], 歷: ["력", "역"], 史: ["사"], 的: ["적"] }));
const source = wordStoreSource(
  wordPairs([
    ["大韓民國", ["대한민국"]],
    ["歷史", ["력사", "역사"]],
  ]),
  {
    characters: (c) => characters.get(c),
  },
);
const formatted = (text: string, format: "hangul" | "paren" | "ruby") => formatReading(readText(text, source), format);

describe("formats", () => {
  test("hangul: the reading, everything else unchanged", () => {
    expect(formatted("大韓民國은 <歷史的>", "hangul")).toBe("대한민국은 <역사적>");
  });

  test("paren: each run of Han characters read, then the run in parentheses", () => {
    expect(formatted("大韓民國은 歷史的 나라", "paren")).toBe("대한민국(大韓民國)은 역사적(歷史的) 나라");
    expect(formatted("𠀀歷史", "paren")).toBe("𠀀역사(𠀀歷史)");
    expect(formatted("𠀀", "paren")).toBe("𠀀");
  });

  test("ruby: each piece in <ruby> with its reading, the whole text HTML-escaped", () => {
    expect(formatted('<b>"歷史的"</b> & 𠀀', "ruby")).toBe(
      "&#60;b&#62;&#34;<ruby>歷史<rt>역사</rt></ruby><ruby>的<rt>적</rt></ruby>&#34;&#60;/b&#62; &#38; 𠀀",
    );
  });
});

describe("the text the reader takes", () => {
  test("any script, astral and compatibility ideographs, combining marks and line breaks", () => {
    expect(verbatimTextProblem("text", "Ünïcode 𠀀 \uF914 e\u0301 👍🏽 ᄀ\u1161\n\t\r", 1000)).toBeUndefined();
  });

  test("refuses a missing or empty text", () => {
    expect(verbatimTextProblem("text", undefined, 10)?.rule).toBe("required");
    expect(verbatimTextProblem("text", "", 10)).toEqual({ rule: "required", detail: "text is required: give the text" });
  });

  test("counts characters as code points against the limit", () => {
    expect(verbatimTextProblem("text", "𠀀".repeat(10), 10)).toBeUndefined();
    expect(verbatimTextProblem("text", "𠀀".repeat(11), 10)).toEqual({ rule: "too_long", detail: "text is 11 characters long; the limit is 10" });
  });

  test("refuses lone surrogates and control characters, saying where", () => {
    expect(verbatimTextProblem("text", "ab\uD800c", 10)).toEqual({
      rule: "lone_surrogate",
      detail: "text holds a lone surrogate (U+D800) at index 2: send well-formed UTF-16 or UTF-8",
    });
    expect(verbatimTextProblem("text", "\uDC00", 10)?.rule).toBe("lone_surrogate");
    expect(verbatimTextProblem("text", "a\u0000", 10)).toEqual({
      rule: "control_character",
      detail: "text holds the control character U+0000 at index 1; only tab, line feed and carriage return are taken",
    });
    expect(verbatimTextProblem("text", "\u009F", 10)?.rule).toBe("control_character");
  });

  test("names the first lone surrogate before any control character, at the index the patterns of Unicode's classes give", () => {
    // The rules as patterns (what the check once ran): a surrogate not in a pair, and Cc but tab and line breaks.
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const control = /(?![\t\n\r])\p{Cc}/u;
    const expected = (text: string) => {
      const found = lone.exec(text) ?? control.exec(text);
      if (found === null) return undefined;
      const unit = found[0].charCodeAt(0).toString(16).toUpperCase();
      return lone.test(text)
        ? `text holds a lone surrogate (U+${unit}) at index ${found.index}: send well-formed UTF-16 or UTF-8`
        : `text holds the control character U+${unit.padStart(4, "0")} at index ${found.index}; only tab, line feed and carriage return are taken`;
    };
    const unit = fc.constantFrom(
      "a",
      "수",
      "\t",
      "\n",
      "\r",
      "\u0000",
      "\u001f",
      "\u007f",
      "\u009f",
      "\u00a0",
      "\uD800",
      "\uDBFF",
      "\uDC00",
      "\uDFFF",
      "𠀀",
      " ",
    );
    fc.assert(
      fc.property(fc.array(unit, { minLength: 1, maxLength: 12 }), (units) => {
        const text = units.join("");
        expect(verbatimTextProblem("text", text, 100)?.detail).toBe(expected(text));
      }),
      { numRuns: 3000 },
    );
  });
});
