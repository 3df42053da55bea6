/** The forms of the stroke data (`dist/stroke-forms.txt`), shared by the pipeline and the runtime. */

/** The glyph form a character's strokes draw: Korean, Japanese or Chinese. */
export type StrokeForm = "ko" | "ja" | "zh";

/** `tables.json`'s `strokeForm`: one letter per record, the form of its strokes or `-` for none. */
export const STROKE_FORM_CODES: Readonly<Record<StrokeForm | "none", string>> = { ko: "k", ja: "j", zh: "z", none: "-" };

const FORM_OF_CODE = new Map(Object.entries(STROKE_FORM_CODES).map(([form, code]) => [code, form === "none" ? null : (form as StrokeForm)]));

/** The form a letter of `strokeForm` stands for; null for none. */
export function strokeFormOf(code: string | undefined): StrokeForm | null {
  return (code === undefined ? undefined : FORM_OF_CODE.get(code)) ?? null;
}
