/**
 * A worker for the cross-process exactness test: opens the store, prints `ready`, waits for a
 * start instant on stdin and spins until it (so all workers hit the database within microseconds
 * of each other, not one after another), calls `consume` N times in a tight loop, and prints the
 * counts it was granted as JSON.
 *
 *   node --import tsx test/store/consumeWorker.ts <db> <bucket> <day> <limit> <calls>
 */
import { once } from "node:events";
import { openSqliteStore } from "../../runtime/stores/sqlite/sqliteStore.ts";

const [path, bucket, day, limit, calls] = process.argv.slice(2);
if (path === undefined || bucket === undefined || day === undefined || limit === undefined || calls === undefined) {
  throw new Error("usage: consumeWorker.ts <db> <bucket> <day> <limit> <calls>");
}
const store = await openSqliteStore(path);
process.stdout.write("ready\n");
const [line] = (await once(process.stdin, "data")) as [Buffer];
const startAt = Number(line.toString().trim());
while (performance.timeOrigin + performance.now() < startAt) {
  // spin: a timer would wake each worker up to a millisecond late
}
const granted: number[] = [];
for (let i = 0; i < Number(calls); i++) {
  const result = await store.consume(bucket, day, Number(limit));
  if (result.allowed) granted.push(result.used);
}
store.close();
process.stdout.write(`${JSON.stringify({ driver: store.driverName, granted })}\n`);
process.stdin.destroy();
