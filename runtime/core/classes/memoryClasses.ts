/** The class quizzes of the in-process store (`MemoryQuotaStore` extends this): exact within one process, lost on restart. */
import {
  type ClassRecord,
  type ClassStore,
  type ClassSubmission,
  type ClassSummary,
  type StudentLookup,
  type SubmitOutcome,
  classSummary,
  newestFirst,
} from "./classStore.ts";

interface Held {
  record: ClassRecord;
  /** By name key, in the order stored (a Map keeps insertion order). */
  submissions: Map<string, ClassSubmission>;
}

export class MemoryClasses implements ClassStore {
  private readonly classes = new Map<string, Held>();
  /** The codes of each key's class quizzes. */
  private readonly byKey = new Map<string, Set<string>>();

  insertClass(record: ClassRecord, maxKept: number): boolean {
    const codes = this.byKey.get(record.key_id) ?? new Set<string>();
    let kept = 0;
    for (const code of codes) if ((this.classes.get(code)?.record.keep_until ?? "") > record.created_at) kept++;
    if (kept >= maxKept) return false;
    this.classes.set(record.code, { record: structuredClone(record), submissions: new Map() });
    codes.add(record.code);
    this.byKey.set(record.key_id, codes);
    return true;
  }

  classByCode(code: string): ClassRecord | null {
    return this.classes.get(code)?.record ?? null;
  }

  classesOfKey(keyId: string, now: string): ClassSummary[] {
    const held = [...(this.byKey.get(keyId) ?? [])]
      .map((code) => this.classes.get(code))
      .filter((h): h is Held => h !== undefined && h.record.keep_until > now);
    return held.map((h) => classSummary(h.record, h.submissions.size)).sort(newestFirst);
  }

  studentOf(code: string, nameKey: string): StudentLookup {
    const held = this.classes.get(code);
    return { submission: held?.submissions.get(nameKey) ?? null, students: held?.submissions.size ?? 0 };
  }

  submitToClass(code: string, submission: ClassSubmission, now: string): SubmitOutcome {
    const held = this.classes.get(code);
    if (held === undefined || held.record.keep_until <= now) return "missing";
    if (held.record.closes_at <= now) return "closed";
    if (held.submissions.has(submission.name_key)) return "taken";
    if (held.submissions.size >= held.record.students_max) return "full";
    held.submissions.set(submission.name_key, structuredClone(submission));
    return "stored";
  }

  classSubmissions(code: string): ClassSubmission[] {
    return [...(this.classes.get(code)?.submissions.values() ?? [])];
  }

  pruneClasses(now: string, limit: number): number {
    let pruned = 0;
    for (const [code, held] of this.classes) {
      if (pruned >= limit) break;
      if (held.record.keep_until > now) continue;
      this.classes.delete(code);
      const codes = this.byKey.get(held.record.key_id);
      codes?.delete(code);
      if (codes?.size === 0) this.byKey.delete(held.record.key_id);
      pruned++;
    }
    return pruned;
  }
}
