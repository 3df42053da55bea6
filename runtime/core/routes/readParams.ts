/** The parameters and limits of `GET`/`POST /read`, each written once (the routes parse with them, the reference documents them). */
import type { EnumSpec, TextSpec } from "../http/params.ts";
import { READ_FORMATS, type ReadFormat } from "../read/formatReading.ts";
import { count } from "../util/count.ts";

/** The most characters (code points) `GET /read?text=` takes. */
export const READ_GET_MAX = 1_000;
/** The most characters (code points) `POST /read` takes; more is `413`. */
export const READ_POST_MAX = 20_000;
/**
 * The most bytes a `POST /read` body may have: room for 20,000 characters sent as JSON `\u` escapes
 * (six bytes each, twelve for an astral character's pair), so that the character limit decides.
 */
export const READ_BODY_MAX_BYTES = 256 * 1024;

const FORMAT: EnumSpec<ReadFormat> = {
  kind: "enum",
  values: READ_FORMATS,
  documentedDefault: "hangul",
  component: "ReadFormat",
  description:
    "How `hangul` is written: `hangul` the reading (대한민국은), `paren` each run of Han characters read and followed by the run in parentheses (대한민국(大韓民國)은), `ruby` HTML `<ruby>` markup with the whole text HTML-escaped.",
};

/** `GET /read`: the form of the answer and the text, parsed in this order (a bad `format` is named even without a text). */
export const READ_PARAMS = {
  format: FORMAT,
  text: {
    kind: "text",
    verbatim: true,
    required: true,
    maxLength: READ_GET_MAX,
    component: "ReadText",
    description: `The text to read: any mix of Han characters and anything else (at most ${count(READ_GET_MAX)} code points here; \`POST\` takes up to ${count(READ_POST_MAX)}).`,
  },
} as const satisfies Record<string, TextSpec | EnumSpec>;

/** `POST /read`: the form of the answer, in the query (the text is the body). */
export const READ_POST_PARAMS = { format: FORMAT } as const satisfies Record<string, EnumSpec>;
