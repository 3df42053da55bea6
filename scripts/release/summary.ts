import type { HanjaRecord } from "../../runtime/format/records.ts";
import type { ReleaseCounts, UnihanPin } from "../../pipeline/pin/pin.ts";

/** How many characters each list names before "and N more". */
const EXAMPLES = 20;

/** The pull request's body: what moving the pin changes, for the reviewer. */
export function releaseSummary(
  before: { pin: UnihanPin; records: readonly HanjaRecord[] },
  after: { pin: UnihanPin; records: readonly HanjaRecord[] },
): string {
  const { pin } = after;
  return [
    `# Unihan ${pin.version}`,
    "",
    `Moves the pinned Unihan release from ${before.pin.version} to ${pin.version}: \`pipeline/data/unihan/${pin.file}\`` +
      ` (from ${pin.origin}, SHA-256 \`${pin.sha256}\`) replaces \`${before.pin.file}\`, and \`pin.json\` was computed from it.` +
      " The whole test suite passed on the new data before this pull request was opened. Merging it adopts the release.",
    "",
    "## Counts (pin.json `counts`)",
    "",
    ...countsTable(before.pin, after.pin),
    "",
    `## Characters compared with Unihan ${before.pin.version}`,
    "",
    ...recordChanges(before.records, after.records),
    "",
    "## Spot records (pin.json `spot_records`, which the tests read)",
    "",
    ...spotChanges(before.pin, after.pin),
    "",
  ].join("\n");
}

function countsTable(before: UnihanPin, after: UnihanPin): string[] {
  const n = (value: number | undefined) => (value === undefined ? "—" : value.toLocaleString("en"));
  const keys = [...new Set([...Object.keys(before.counts), ...Object.keys(after.counts)])] as (keyof ReleaseCounts)[];
  return [
    `| | Unihan ${before.version} | Unihan ${after.version} | change |`,
    "|---|--:|--:|--:|",
    ...keys.map((k) => {
      const change = (after.counts[k] ?? 0) - (before.counts[k] ?? 0);
      return `| ${k.replaceAll("_", " ")} | ${n(before.counts[k])} | ${n(after.counts[k])} | ${change > 0 ? "+" : ""}${n(change)} |`;
    }),
  ];
}

/** Added, removed and changed characters (`source` always changes and is left out). */
export function recordChanges(before: readonly HanjaRecord[], after: readonly HanjaRecord[]): string[] {
  const old = new Map(before.map((r) => [r.character, r]));
  const now = new Set(after.map((r) => r.character));
  const added = after.filter((r) => !old.has(r.character));
  const removed = before.filter((r) => !now.has(r.character));
  const fieldCounts = new Map<string, number>();
  const changed: { record: HanjaRecord; fields: string[] }[] = [];
  for (const record of after) {
    const previous = old.get(record.character);
    if (!previous) continue;
    const fields = (Object.keys(record) as (keyof HanjaRecord)[]).filter((k) => k !== "source" && JSON.stringify(record[k]) !== JSON.stringify(previous[k]));
    if (fields.length === 0) continue;
    changed.push({ record, fields });
    for (const field of fields) fieldCounts.set(field, (fieldCounts.get(field) ?? 0) + 1);
  }
  const name = (r: HanjaRecord) => `${r.character} ${r.codepoint}`;
  const byField = [...fieldCounts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return [
    `- added (${added.length}): ${list(added, name)}`,
    `- removed (${removed.length}): ${list(removed, name)}`,
    `- changed (${changed.length}): ${list(changed, (c) => `${name(c.record)} (${c.fields.join(", ")})`)}`,
    ...(byField.length > 0 ? [`- changed fields: ${byField.map(([field, count]) => `\`${field}\` ${count}`).join(", ")}`] : []),
  ];
}

function spotChanges(before: UnihanPin, after: UnihanPin): string[] {
  const characters = [...new Set([...Object.keys(before.spot_records), ...Object.keys(after.spot_records)])];
  const lines = characters.flatMap((c) => {
    const a = before.spot_records[c];
    const b = after.spot_records[c];
    if (!a) return [`- ${c}: new`];
    if (!b) return [`- ${c}: no longer in the data`];
    const fields = (Object.keys(b) as (keyof typeof b)[]).filter((k) => k !== "source" && JSON.stringify(a[k]) !== JSON.stringify(b[k]));
    return fields.length === 0 ? [] : [`- ${c} ${b.codepoint}: ${fields.map((k) => `\`${k}\` ${JSON.stringify(a[k])} → ${JSON.stringify(b[k])}`).join("; ")}`];
  });
  return lines.length > 0 ? lines : ["Unchanged (beside `source`)."];
}

function list<T>(items: readonly T[], show: (item: T) => string): string {
  if (items.length === 0) return "none";
  return `${items.slice(0, EXAMPLES).map(show).join(", ")}${items.length > EXAMPLES ? `, and ${items.length - EXAMPLES} more` : ""}`;
}
