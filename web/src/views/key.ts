/**
 * `#/key`: the API key (for the tab, or remembered on this computer on request), its status from
 * `/me`, and the key application with its payment instructions.
 */
import type { KeyStatus } from "../../../runtime/format/quizSchemas.ts";
import { BANK_ACCOUNT_UNSET } from "../../../runtime/core/quota/bankAccount.ts";
import { call, keyRemembered, storeKey, storedKey } from "../api.ts";
import { field, h, replace } from "../dom.ts";
import { lang, t } from "../i18n.ts";
import { type Problem, copyButton, errorBox, isProblem, loading, requestPanel, showQuota } from "../ui.ts";
import type { ViewContext } from "./context.ts";

const KEY_SHAPE = /^hj_[0-9A-Za-z]{32}$/;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

interface Me {
  key: KeyStatus;
}

interface Applied {
  api_key: string;
  key: { id: string; plan: string; daily_limit: number };
  payment: { plan: string; price_krw: number; method: string; account: string; reference: string };
}

/** The key view. */
export function keyView(main: HTMLElement, ctx: ViewContext): void {
  const status = h("div", { class: "key-status", "aria-live": "polite" });
  const input = h("input", { type: "password", name: "api_key", autocomplete: "off", spellcheck: "false", value: storedKey() ?? "" });
  const remember = h("input", { type: "checkbox", name: "remember", checked: keyRemembered() });
  const keyForm = h(
    "form",
    {
      class: "key-form",
      onsubmit: (event: Event) => {
        event.preventDefault();
        const key = input.value.trim();
        if (!KEY_SHAPE.test(key)) return invalid(input, t().keyBadFormat);
        clearInvalid(input);
        storeKey(key, remember.checked);
        void check(status, ctx);
      },
    },
    field(t().keyField, input, t().keyHint),
    h("div", { class: "field check" }, h("label", {}, remember, ` ${t().keyRemember}`), h("span", { class: "hint" }, t().keyRememberHint)),
    h(
      "div",
      { class: "buttons" },
      h("button", { type: "submit", class: "primary" }, t().keySave),
      h(
        "button",
        { type: "button", onclick: () => ((input.value = ""), (remember.checked = false), storeKey(undefined), clearInvalid(input), void check(status, ctx)) },
        t().keyForget,
      ),
    ),
  );
  // A new key shows here, at the top, not under the form it came from.
  const fresh = h("div", { class: "fresh-key" });
  replace(
    main,
    h("h1", { tabindex: -1 }, t().keyTitle),
    fresh,
    h("section", { class: "note" }, h("h2", {}, t().classTitle), h("p", {}, t().classText)),
    keyForm,
    status,
    applyForm(ctx, fresh, (key) => {
      storeKey(key, remember.checked);
      input.value = key;
      clearInvalid(input);
      void check(status, ctx);
    }),
  );
  void check(status, ctx);
}

/** Shows what `/me` says of the tab's key (or the demo), and updates the quota line. */
async function check(status: HTMLElement, ctx: ViewContext): Promise<void> {
  replace(status, loading());
  try {
    const answer = await call<Me | Problem>(`${ctx.bases.quiz}/me`, {}, { keyed: true });
    if (isProblem(answer.body)) return replace(status, errorBox(answer.body), requestPanel(answer.request));
    const key = answer.body.key;
    showQuota({ limit: key.daily_limit, remaining: key.remaining }, key.plan);
    replace(
      status,
      h("p", {}, storedKey() ? (keyRemembered() ? t().keyRemembered : t().keyInUse) : t().keyNone),
      h(
        "dl",
        { class: "facts" },
        h("dt", {}, t().plan),
        h("dd", {}, t().planNames[key.plan] ?? key.plan),
        h("dt", {}, t().status),
        h("dd", {}, t().statusNames[key.status] ?? key.status),
        h("dt", {}, t().remaining),
        h("dd", {}, `${key.remaining} / ${key.daily_limit}`),
      ),
      requestPanel(answer.request),
    );
  } catch (error) {
    replace(status, errorBox(error));
  }
}

/** The application form (the API's required fields, name and e-mail, and its optional phone); the new key goes to `top`, and `onKey` gets it to keep. */
function applyForm(ctx: ViewContext, top: HTMLElement, onKey: (key: string) => void): HTMLElement {
  const inputs = {
    name: h("input", { type: "text", name: "name", autocomplete: "name", required: true, maxlength: 100 }),
    email: h("input", { type: "email", name: "email", autocomplete: "email", required: true, maxlength: 254 }),
    phone: h("input", { type: "tel", name: "phone", autocomplete: "tel", maxlength: 20 }),
  };
  const outcome = h("div", { class: "outcome" });
  const form = h(
    "form",
    {
      class: "apply-form",
      novalidate: true,
      onsubmit: (event: Event) => {
        event.preventDefault();
        void submit();
      },
    },
    field(t().name, inputs.name),
    field(t().email, inputs.email),
    field(t().phone, inputs.phone, t().optional),
    h("button", { type: "submit", class: "primary" }, t().apply),
  );

  async function submit(): Promise<void> {
    let first: HTMLInputElement | undefined;
    for (const input of Object.values(inputs)) {
      const value = input.value.trim();
      const message = value === "" && input.required ? t().required : input.type === "email" && !EMAIL_SHAPE.test(value) ? t().badEmail : undefined;
      if (message) {
        invalid(input, message);
        first ??= input;
      } else clearInvalid(input);
    }
    if (first) {
      replace(outcome, h("p", { class: "error", role: "alert" }, t().fixFields));
      first.focus();
      return;
    }
    replace(outcome, loading());
    try {
      // An optional field left empty is left out, as the API's schema has it.
      const body = Object.fromEntries(Object.entries(inputs).flatMap(([name, input]) => (input.value.trim() ? [[name, input.value.trim()]] : [])));
      const answer = await call<Applied | Problem>(`${ctx.bases.quiz}/subscribe`, {}, { method: "POST", json: body });
      const result = answer.body;
      if (isProblem(result)) {
        const input = result.param ? inputs[result.param as keyof typeof inputs] : undefined;
        if (input) {
          invalid(input, result.detail ?? t().error);
          input.focus();
        }
        replace(outcome, errorBox(result), requestPanel(answer.request));
        return;
      }
      form.reset();
      replace(outcome, requestPanel(answer.request));
      replace(top, applied(result));
      onKey(result.api_key);
      top.querySelector<HTMLElement>(".applied")?.focus();
    } catch (error) {
      replace(outcome, errorBox(error));
    }
  }

  return h(
    "section",
    { class: "apply", "aria-labelledby": "apply-title" },
    h("h2", { id: "apply-title" }, t().applyTitle),
    h("p", {}, t().applyText),
    form,
    outcome,
  );
}

/** The new key with a copy button, and what to pay and exactly what to write in the transfer's name field. */
function applied(result: Applied): HTMLElement {
  const { payment } = result;
  const reference = payment.reference;
  const price = lang() === "ko" ? `${payment.price_krw.toLocaleString("ko")}원` : `${payment.price_krw.toLocaleString("en")} KRW`;
  return h(
    "div",
    { class: "applied", role: "status", tabindex: -1 },
    h("p", {}, t().applied),
    h("p", { class: "copyable" }, h("code", { class: "new-key" }, result.api_key), copyButton(result.api_key, t().keyTitle)),
    h("p", {}, t().keyApplied),
    h("h2", {}, t().payment),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t().price),
      h("dd", {}, price),
      h("dt", {}, t().account),
      h("dd", {}, payment.account === BANK_ACCOUNT_UNSET ? t().accountUnset : payment.account),
      h("dt", {}, t().transferName),
      h("dd", { class: "copyable" }, h("code", { class: "reference" }, reference), copyButton(reference, t().transferName)),
    ),
    h("p", {}, t().transferNameHow(reference)),
  );
}

/** Marks a field invalid with a message read out with it. */
function invalid(input: HTMLInputElement, message: string): void {
  const id = `${input.id}-error`;
  let note = document.getElementById(id);
  if (!note) {
    note = h("span", { class: "field-error", id });
    input.insertAdjacentElement("afterend", note);
  }
  note.textContent = message;
  input.setAttribute("aria-invalid", "true");
  const described = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((part) => part && part !== id);
  input.setAttribute("aria-describedby", [...described, id].join(" "));
}

function clearInvalid(input: HTMLInputElement): void {
  document.getElementById(`${input.id}-error`)?.remove();
  input.removeAttribute("aria-invalid");
  const described = (input.getAttribute("aria-describedby") ?? "").split(" ").filter((part) => part && part !== `${input.id}-error`);
  if (described.length > 0) input.setAttribute("aria-describedby", described.join(" "));
  else input.removeAttribute("aria-describedby");
}
