/**
 * The share of the reader one client may take: a long text (`POST /read` over `HEAVY_READ`
 * characters) is read a slice at a time (`read/slices.ts`), so it holds no other request up for
 * longer than a slice, but each one read at once takes a slice of every turn of the event loop.
 * So each client address (`quota/clientIp.ts`: the demo's, after the trusted proxy hops) may have
 * `HEAVY_READS_PER_CLIENT` long texts under way at once, and the server `HEAVY_READS_IN_ALL`; a
 * long text beyond either is answered `429 too_many_requests` with `Retry-After` at once, without
 * being read: no client can queue work behind the ones under way. Shorter texts are not counted.
 */
import { ApiError } from "../http/errors.ts";
import { longerThan } from "../util/codePointLength.ts";
import { count } from "../util/count.ts";
import { READ_GET_MAX } from "./readParams.ts";

/** A text over this many characters (code points) is a long one: what `GET /read` takes at most. */
export const HEAVY_READ = READ_GET_MAX;
/** How many long texts one client address may have under way at once. */
export const HEAVY_READS_PER_CLIENT = 2;
/** How many long texts the server reads at once, from all clients. */
export const HEAVY_READS_IN_ALL = 8;
/** The `Retry-After` of a long text refused (a 20,000-character text takes tens of milliseconds). */
const RETRY_AFTER_SECONDS = 1;

/** Whether `text` has more than `HEAVY_READ` characters (code points). */
export function isHeavyRead(text: string): boolean {
  return longerThan(text, HEAVY_READ);
}

/** The long texts under way, by client address. */
export class HeavyReads {
  private readonly byClient = new Map<string, number>();
  private underWay = 0;

  constructor(
    private readonly perClient = HEAVY_READS_PER_CLIENT,
    private readonly inAll = HEAVY_READS_IN_ALL,
  ) {}

  /** Runs `read` as one of `client`'s long texts, or throws `429 too_many_requests` when it has its share under way (or the server does). */
  async run<T>(client: string, read: () => Promise<T>): Promise<T> {
    const held = this.byClient.get(client) ?? 0;
    if (held >= this.perClient) throw tooMany(`This client already has ${count(held)} texts of over ${count(HEAVY_READ)} characters being read`);
    if (this.underWay >= this.inAll) throw tooMany(`The server is reading ${count(this.underWay)} texts of over ${count(HEAVY_READ)} characters`);
    this.byClient.set(client, held + 1);
    this.underWay++;
    try {
      return await read();
    } finally {
      this.underWay--;
      const left = (this.byClient.get(client) as number) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    }
  }
}

function tooMany(why: string): ApiError {
  return new ApiError(
    429,
    "too_many_requests",
    `${why}; send it again after Retry-After seconds (at most ${count(HEAVY_READS_PER_CLIENT)} such texts a client at once, or send texts of at most ${count(HEAVY_READ)} characters).`,
    undefined,
    { "Retry-After": String(RETRY_AFTER_SECONDS) },
  );
}
