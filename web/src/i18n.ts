/** Interface text in Korean and English; the language defaults from the browser and can be switched. */

/** An interface language. */
export type Lang = "ko" | "en";

const STORAGE = "hanja-page-lang";

const en = {
  title: "Hanja & idioms",
  tagline: "Look up Han characters, study four-character idioms, take a quiz.",
  skip: "Skip to content",
  navSearch: "Characters",
  navIdioms: "Idioms",
  navQuiz: "Quiz",
  navKey: "API key",
  navDocs: "API reference",
  language: "Language",
  loading: "Loading…",
  error: "Something went wrong",
  networkError: "The service could not be reached. Check the connection and try again.",
  retry: "Try again",
  search: "Search",
  examples: "Try",
  charQuery: "Reading, 훈음, English or code point",
  charQueryHint: "e.g. 수, 물, 배울 학, water, U+6C34 or 水",
  strokes: "Strokes",
  radical: "Radical number (1–214)",
  starterOnly: "Only characters with the project's Korean gloss",
  educationOnly: "Only education hanja",
  results: (n: number) => `${n.toLocaleString("en")} result${n === 1 ? "" : "s"}`,
  noResults: "Nothing found. Try another reading, word or filter.",
  previous: "Previous page",
  next: "Next page",
  pageOf: (p: number, n: number) => `Page ${p} of ${n}`,
  readings: "Readings",
  hunum: "훈음 (meaning and reading)",
  gloss: "Korean gloss",
  definition: "English",
  codepoint: "Code point",
  radicalLabel: "Radical",
  variants: "Variants",
  education: "Education hanja",
  nameHanja: "Name hanja",
  yes: "yes",
  no: "no",
  idiomsWith: (c: string) => `Idioms with ${c}`,
  noIdioms: "No idiom in the dataset contains this character.",
  back: "Back",
  backToSearch: "Back to search",
  idiomQuery: "Hanja, hangul, initial consonants or meaning",
  idiomQueryHint: "e.g. 背水, 배수지진, ㅂㅅㅈㅈ or 물",
  idiom: "Idiom",
  meaning: "Meaning",
  meaningEn: "In English",
  literal: "Literally",
  hangul: "Reading",
  initials: "Initial consonants",
  characters: "Characters",
  notFound: "Not found.",
  quizTitle: "Quiz",
  quizType: "Question type",
  anyType: "Mixed",
  choices: "Choices per question",
  count: "Questions",
  start: "Start quiz",
  quizSettings: "Quiz settings",
  quizNote: "A whole quiz is drawn in one call, however many questions it has.",
  question: (i: number, n: number) => `Question ${i} of ${n}`,
  correct: "Correct!",
  wrong: (a: string) => `Not quite — the answer is ${a}.`,
  score: (s: number, n: number) => `Score: ${s} / ${n}`,
  nextQuestion: "Next question",
  finish: "See result",
  finished: (s: number, n: number) => `Finished: ${s} of ${n} right.`,
  again: "New quiz",
  answerIdiom: "The answer",
  quotaDemo: (r: number, l: number) => `Demo: ${r} of ${l} calls left today (shared by everyone at this address)`,
  quotaKey: (r: number, l: number, plan: string) => `Key (${plan}): ${r} of ${l} calls left today`,
  exhaustedTitle: "Today's demo quota is used up",
  exhausted: "Everyone at this address shares 30 demo calls a day, and today's are gone.",
  exhaustedRetry: (t: string) => `Calls are available again at ${t}.`,
  exhaustedKey: "Enter or apply for an API key to go on",
  classTitle: "For a class",
  classText:
    "A class behind one school address shares one demo quota: 30 calls a day for the whole school. One call draws a quiz of up to 20 questions, so draw the class's quiz in one go. With a key the quota is your own: 100 calls a day at once, and 10,000 a day for a year once the annual plan (9,900 KRW) is paid. Enter the key on each class computer under “API key”; it stays in that browser tab only.",
  keyTitle: "API key",
  keyField: "API key (kept in this tab only)",
  keyHint: "Sent as the X-API-Key header; never put in a link.",
  keySave: "Use this key",
  keyForget: "Forget key",
  keyCheck: "Check key",
  keyInUse: "A key is in use in this tab.",
  keyNone: "No key: the shared demo quota is used.",
  keyBadFormat: "A key looks like hj_ followed by 32 letters and digits.",
  plan: "Plan",
  status: "Status",
  planNames: { demo: "demo", free: "free", annual: "annual" } as Record<string, string>,
  statusNames: { active: "active", pending_deposit: "awaiting the deposit", expired: "expired", revoked: "revoked" } as Record<string, string>,
  remaining: "Left today",
  applyTitle: "Apply for a key",
  applyText: "You get a key at once (100 calls a day). Pay the annual plan by bank transfer and it becomes 10,000 calls a day for a year.",
  name: "Name",
  email: "E-mail",
  phone: "Phone",
  depositor: "Name on the bank transfer",
  apply: "Apply",
  required: "Required.",
  badEmail: "Enter an e-mail address like name@example.com.",
  fixFields: "Please correct the marked fields.",
  applied: "Your key — copy it now, it is shown only once:",
  payment: "Payment instructions",
  price: "Price",
  account: "Account",
  reference: "Transfer reference (write it as the depositor name)",
  keyApplied: "The key is now used in this tab.",
  apiRequest: "API request for developers",
  apiUrl: "URL",
  apiCurl: "curl",
  copy: "Copy",
  copied: "Copied",
  keyPlaceholderNote: "The key is never shown here; $HANJA_API_KEY stands for it.",
};

type Strings = typeof en;

const ko: Strings = {
  title: "한자와 사자성어",
  tagline: "한자를 찾아보고, 사자성어를 공부하고, 퀴즈를 풀어 보세요.",
  skip: "본문으로 건너뛰기",
  navSearch: "한자",
  navIdioms: "사자성어",
  navQuiz: "퀴즈",
  navKey: "API 키",
  navDocs: "API 문서",
  language: "언어",
  loading: "불러오는 중…",
  error: "문제가 생겼습니다",
  networkError: "서비스에 연결할 수 없습니다. 연결을 확인하고 다시 시도하세요.",
  retry: "다시 시도",
  search: "검색",
  examples: "이렇게 찾아보세요",
  charQuery: "음, 훈음, 영어 또는 코드 포인트",
  charQueryHint: "예: 수, 물, 배울 학, water, U+6C34, 水",
  strokes: "획수",
  radical: "부수 번호 (1–214)",
  starterOnly: "학습용 풀이가 있는 한자만",
  educationOnly: "교육용 한자만",
  results: (n) => `${n.toLocaleString("ko")}개`,
  noResults: "찾은 것이 없습니다. 다른 음, 낱말이나 조건으로 찾아보세요.",
  previous: "이전 쪽",
  next: "다음 쪽",
  pageOf: (p, n) => `${n}쪽 중 ${p}쪽`,
  readings: "음",
  hunum: "훈음",
  gloss: "학습용 풀이",
  definition: "영어 뜻",
  codepoint: "코드 포인트",
  radicalLabel: "부수",
  variants: "이체자",
  education: "교육용 한자",
  nameHanja: "인명용 한자",
  yes: "예",
  no: "아니요",
  idiomsWith: (c) => `${c} 자가 들어간 사자성어`,
  noIdioms: "이 한자가 들어간 사자성어가 없습니다.",
  back: "뒤로",
  backToSearch: "검색으로 돌아가기",
  idiomQuery: "한자, 한글, 초성 또는 뜻",
  idiomQueryHint: "예: 背水, 배수지진, ㅂㅅㅈㅈ, 물",
  idiom: "사자성어",
  meaning: "뜻",
  meaningEn: "영어 뜻",
  literal: "글자대로",
  hangul: "독음",
  initials: "초성",
  characters: "한자",
  notFound: "찾을 수 없습니다.",
  quizTitle: "퀴즈",
  quizType: "문제 유형",
  anyType: "섞어서",
  choices: "보기 수",
  count: "문제 수",
  start: "퀴즈 시작",
  quizSettings: "퀴즈 설정",
  quizNote: "문제 수와 상관없이 퀴즈 한 벌을 한 번의 호출로 받습니다.",
  question: (i, n) => `${n}문제 중 ${i}번`,
  correct: "정답입니다!",
  wrong: (a) => `아쉽네요. 정답은 ${a}입니다.`,
  score: (s, n) => `점수: ${s} / ${n}`,
  nextQuestion: "다음 문제",
  finish: "결과 보기",
  finished: (s, n) => `끝! ${n}문제 중 ${s}문제를 맞혔습니다.`,
  again: "새 퀴즈",
  answerIdiom: "정답",
  quotaDemo: (r, l) => `체험: 오늘 ${l}회 중 ${r}회 남음 (이 주소의 모든 사용자가 함께 씀)`,
  quotaKey: (r, l, plan) => `키 (${plan}): 오늘 ${l}회 중 ${r}회 남음`,
  exhaustedTitle: "오늘의 체험 호출을 모두 썼습니다",
  exhausted: "이 주소의 모든 사용자가 하루 30회의 체험 호출을 함께 쓰며, 오늘 몫을 다 썼습니다.",
  exhaustedRetry: (t) => `${t}부터 다시 호출할 수 있습니다.`,
  exhaustedKey: "API 키를 입력하거나 신청해서 계속하기",
  classTitle: "수업에서 쓰려면",
  classText:
    "한 학교 주소 뒤의 반 전체는 체험 호출 하루 30회를 함께 씁니다. 한 번의 호출로 최대 20문제의 퀴즈를 받으니 반의 퀴즈는 한 번에 받으세요. 키가 있으면 호출 수가 따로 주어집니다: 바로 하루 100회, 연간 요금(9,900원)을 입금하면 1년 동안 하루 10,000회. 교실 컴퓨터마다 ‘API 키’ 화면에서 키를 입력하세요. 키는 그 브라우저 탭에만 남습니다.",
  keyTitle: "API 키",
  keyField: "API 키 (이 탭에만 보관)",
  keyHint: "X-API-Key 헤더로 보내며 링크에는 절대 넣지 않습니다.",
  keySave: "이 키 사용",
  keyForget: "키 지우기",
  keyCheck: "키 확인",
  keyInUse: "이 탭에서 키를 쓰고 있습니다.",
  keyNone: "키 없음: 함께 쓰는 체험 호출을 씁니다.",
  keyBadFormat: "키는 hj_ 뒤에 영문자와 숫자 32자가 붙은 형태입니다.",
  plan: "요금제",
  status: "상태",
  planNames: { demo: "체험", free: "무료", annual: "연간" },
  statusNames: { active: "사용 중", pending_deposit: "입금 대기", expired: "만료", revoked: "해지" },
  remaining: "오늘 남은 호출",
  applyTitle: "키 신청",
  applyText: "신청하면 바로 키를 받습니다(하루 100회). 연간 요금을 계좌이체로 내면 1년 동안 하루 10,000회가 됩니다.",
  name: "이름",
  email: "이메일",
  phone: "전화번호",
  depositor: "입금자명",
  apply: "신청",
  required: "꼭 입력하세요.",
  badEmail: "name@example.com 같은 이메일 주소를 입력하세요.",
  fixFields: "표시된 칸을 고쳐 주세요.",
  applied: "발급된 키입니다. 다시 보여 드리지 않으니 지금 복사하세요:",
  payment: "입금 안내",
  price: "금액",
  account: "계좌",
  reference: "입금 확인 번호 (입금자명으로 적으세요)",
  keyApplied: "이 탭에서 이제 이 키를 씁니다.",
  apiRequest: "개발자용 API 요청",
  apiUrl: "URL",
  apiCurl: "curl",
  copy: "복사",
  copied: "복사됨",
  keyPlaceholderNote: "키는 여기에 보이지 않으며 $HANJA_API_KEY가 그 자리를 대신합니다.",
};

const STRINGS: Record<Lang, Strings> = { ko, en };

let current: Lang = initialLang();

/** The language chosen before in this browser, else the browser's first Korean or English preference. */
function initialLang(): Lang {
  const saved = safeStorage()?.getItem(STORAGE);
  if (saved === "ko" || saved === "en") return saved;
  for (const tag of navigator.languages ?? [navigator.language]) {
    if (/^ko\b/i.test(tag)) return "ko";
    if (/^en\b/i.test(tag)) return "en";
  }
  return "ko";
}

function safeStorage(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

/** The interface language now. */
export function lang(): Lang {
  return current;
}

/** Switches the language and remembers it in this browser. */
export function setLang(next: Lang): void {
  current = next;
  safeStorage()?.setItem(STORAGE, next);
}

/** The interface strings of the current language. */
export function t(): Strings {
  return STRINGS[current];
}
