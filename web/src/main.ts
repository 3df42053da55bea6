/**
 * The page: a shell (header, language switch, navigation, quota line) and views chosen by the
 * URL's fragment (`#/hanja/水`), so every view state is a link that can be shared and the server
 * serves one document wherever it is mounted.
 */
import { readBases } from "./api.ts";
import { h, replace } from "./dom.ts";
import { type Lang, lang, setLang, t } from "./i18n.ts";
import { meteredView, quotaElement } from "./ui.ts";
import { characterDetail, characterSearch } from "./views/characters.ts";
import { classStudentView } from "./views/classStudent.ts";
import { classTeacherView } from "./views/classTeacher.ts";
import type { View, ViewContext } from "./views/context.ts";
import { idiomDetail, idiomSearch } from "./views/idioms.ts";
import { keyView } from "./views/key.ts";
import { quizView, refreshQuota } from "./views/quiz.ts";
import { radicalsView } from "./views/radicals.ts";
import { readView } from "./views/read.ts";
import { wordSearch } from "./views/words.ts";
import { writingView } from "./views/writing.ts";

const bases = readBases();
const main = h("main", { id: "main", tabindex: -1 });
let renders = 0;
/** Navigations inside the page so far: Back is offered only when it returns to a view of the page. */
let navigations = 0;

/** The view and its argument for a fragment such as `#/hanja/水?x=1`. */
function route(hash: string): { view: View; arg: string; params: URLSearchParams; section: string } {
  const [path = "", query = ""] = hash.replace(/^#/, "").split("?", 2);
  const params = new URLSearchParams(query);
  const [, section = "", ...rest] = path.split("/");
  const arg = safeDecode(rest.join("/"));
  // A class quiz's link for students (`/?class=<code>`) shows it until the page is left for another view.
  const classCode = new URLSearchParams(location.search).get("class");
  if (classCode !== null && path === "") return { view: classStudentView, arg: classCode, params, section: "class" };
  if (section === "class") return { view: classTeacherView, arg, params, section: "quiz" };
  if (section === "hanja" && arg) return { view: characterDetail, arg, params, section: "hanja" };
  if (section === "idioms") return { view: idiomSearch, arg, params, section };
  if (section === "idiom" && arg) return { view: idiomDetail, arg, params, section: "idioms" };
  if (section === "radicals") return { view: radicalsView, arg, params, section: "hanja" };
  if (section === "words") return { view: wordSearch, arg, params, section: "hanja" };
  if (section === "quiz") return { view: quizView, arg, params, section };
  if (section === "read") return { view: readView, arg, params, section };
  if (section === "writing") return { view: writingView, arg, params, section };
  if (section === "key") return { view: keyView, arg, params, section };
  return { view: characterSearch, arg: "", params, section: "hanja" };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Renders the view of the current fragment; `focus` moves focus to it (after a navigation, not on first load). */
async function render(focus: boolean): Promise<void> {
  const mine = ++renders;
  const { view, arg, params, section } = route(location.hash);
  for (const link of document.querySelectorAll<HTMLAnchorElement>("nav.main-nav a[data-section]")) {
    if (link.dataset.section === section) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  meteredView(section === "quiz");
  // A quiz left running gives the other views their usual layout back (the quiz view sets it again on resuming).
  document.body.classList.remove("quizzing");
  const ctx: ViewContext = {
    bases,
    arg,
    params,
    go: (hash) => (location.hash === hash ? void render(true) : void (location.hash = hash)),
    current: () => mine === renders,
    canGoBack: navigations > 0,
  };
  const shown = view(main, ctx);
  if (focus) (main.querySelector<HTMLElement>("h1") ?? main).focus();
  await shown;
  if (focus && mine === renders) main.querySelector<HTMLElement>("[data-focus]")?.focus();
  document.title = `${main.querySelector("h1")?.textContent ?? ""} · ${t().title}`;
}

/** Builds the header and navigation in the current language. */
function shell(): HTMLElement[] {
  const select = h(
    "select",
    {
      id: "lang",
      onchange: (event: Event) => {
        setLang((event.target as HTMLSelectElement).value as Lang);
        build();
        void render(false);
        document.getElementById("lang")?.focus();
      },
    },
    h("option", { value: "ko", lang: "ko", selected: lang() === "ko" }, "한국어"),
    h("option", { value: "en", lang: "en", selected: lang() === "en" }, "English"),
  );
  const link = (href: string, text: string, section?: string) => h("li", {}, h("a", { href, "data-section": section }, text));
  return [
    h("a", { href: "#main", class: "skip", onclick: (event: Event) => (event.preventDefault(), main.focus()) }, t().skip),
    h(
      "header",
      { class: "top" },
      h("div", { class: "brand" }, h("a", { href: "#/", class: "home" }, t().title), h("p", {}, t().tagline)),
      h("div", { class: "lang" }, h("label", { for: "lang" }, t().language), select),
    ),
    h(
      "nav",
      { class: "main-nav", "aria-label": t().title },
      h(
        "ul",
        {},
        link("#/", t().navSearch, "hanja"),
        link("#/idioms", t().navIdioms, "idioms"),
        link("#/read", t().navRead, "read"),
        link("#/quiz", t().navQuiz, "quiz"),
        link("#/writing", t().navWriting, "writing"),
        link("#/key", t().navKey, "key"),
        link(`${bases.root}/docs`, t().navDocs),
      ),
    ),
    quotaElement(),
  ];
}

function build(): void {
  document.documentElement.lang = lang();
  replace(document.body, shell(), main);
}

build();
addEventListener("hashchange", () => {
  navigations++;
  void render(true);
});
void render(false);
void refreshQuota({ bases });
