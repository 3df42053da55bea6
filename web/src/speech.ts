/**
 * Reading Korean aloud with the browser's own voice (speechSynthesis): a button appears only where
 * the browser has a Korean voice (one whose `lang` starts with `ko`), now or once its voices load;
 * elsewhere nothing is shown. Nothing is downloaded and nothing leaves the browser.
 */
import { h } from "./dom.ts";
import { t } from "./i18n.ts";

/** The browser's Korean voice, its default one first; undefined where there is none (or no speech synthesis). */
export function koreanVoice(): SpeechSynthesisVoice | undefined {
  if (typeof speechSynthesis === "undefined") return undefined;
  const voices = speechSynthesis.getVoices().filter((voice) => voice.lang.toLowerCase().replace("_", "-").startsWith("ko"));
  return voices.find((voice) => voice.default) ?? voices[0];
}

/** Says `text` in Korean with that voice, cutting short whatever it was saying. */
export function speak(text: string, voice: SpeechSynthesisVoice): void {
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.voice = voice;
  utterance.lang = voice.lang;
  speechSynthesis.cancel();
  speechSynthesis.speak(utterance);
}

/**
 * A place for a “listen” button that says `text`: the button is there when the browser has a Korean
 * voice, or is added when its voices load (Chromium lists them after the page starts); otherwise the
 * place stays empty.
 */
export function listenButton(text: string): HTMLElement {
  const place = h("span", { class: "listen" });
  const fill = () => {
    const voice = koreanVoice();
    if (voice === undefined || place.firstChild !== null) return;
    place.append(
      h(
        "button",
        {
          type: "button",
          class: "listen-button",
          "aria-label": t().listenTo(text),
          title: t().listenTo(text),
          onclick: () => speak(text, koreanVoice() ?? voice),
        },
        "🔊",
      ),
    );
  };
  fill();
  if (place.firstChild === null && typeof speechSynthesis !== "undefined") speechSynthesis.addEventListener("voiceschanged", fill, { once: true });
  return place;
}
