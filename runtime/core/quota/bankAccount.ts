/**
 * The account `POST /subscribe` names while the operator has not set `BANK_ACCOUNT`. Written once:
 * the options put it in the answer, and the page recognises it to say so in the reader's language
 * instead of showing this English sentence.
 */
export const BANK_ACCOUNT_UNSET = "(the operator has not configured BANK_ACCOUNT yet)";
