/** What an inbound text asks for when its whole text is a keyword (CTIA, TCPA; the keywords carriers honour). */
export type KeywordIntent = 'opt_out' | 'opt_out_all' | 'opt_in' | 'help';

/** The error a send to a suppressed number is refused (or listed as failed) with. */
export const RECIPIENT_OPTED_OUT = 'Recipient has opted out';

export const OPT_OUT_KEYWORDS: readonly string[] = ['STOP', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT', 'ARRET', 'TD'];
export const OPT_OUT_ALL_KEYWORDS: readonly string[] = ['STOPALL'];
export const OPT_IN_KEYWORDS: readonly string[] = ['START', 'UNSTOP', 'YES'];
export const HELP_KEYWORDS: readonly string[] = ['HELP', 'INFO'];

/** Upper case, letters and digits only: "Stop." and " s-t-o-p! " are both STOP. */
export function normaliseKeyword(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[^\p{L}\p{N}]/gu, '')
    .toUpperCase();
}

/**
 * The intent of a message whose whole text (trimmed, any case, punctuation and spaces ignored) is a
 * keyword; null for anything else, so "stop sending me offers" is an ordinary message.
 * `extraOptOutKeywords` is the operator's own list, added to the standard opt-out keywords.
 */
export function classifyKeyword(text: string, extraOptOutKeywords: readonly string[] = []): KeywordIntent | null {
  const word = normaliseKeyword(text);
  if (word === '') return null;
  if (OPT_OUT_ALL_KEYWORDS.includes(word)) return 'opt_out_all';
  if (OPT_OUT_KEYWORDS.includes(word)) return 'opt_out';
  if (OPT_IN_KEYWORDS.includes(word)) return 'opt_in';
  if (HELP_KEYWORDS.includes(word)) return 'help';
  return extraOptOutKeywords.some((extra) => normaliseKeyword(extra) === word) ? 'opt_out' : null;
}

export interface ConfirmationContext {
  /** The company's name as its customers know it. */
  companyName: string;
  /** Where to get help: a phone number, an address or a URL; absent, HELP points to the keywords. */
  helpContact?: string;
}

/** The default replies, in the CTIA Messaging Principles' wording; a company may configure its own. */
export const DEFAULT_CONFIRMATIONS = {
  optOut: (c: ConfirmationContext) => `${c.companyName}: You are unsubscribed and will receive no further messages. Reply START to resubscribe.`,
  optOutAll: (c: ConfirmationContext) =>
    `${c.companyName}: You are unsubscribed from all messages from this sender and will receive no further messages. Reply START to resubscribe.`,
  optIn: (c: ConfirmationContext) =>
    `${c.companyName}: You are resubscribed and will receive messages again. Msg&data rates may apply. Reply STOP to unsubscribe.`,
  help: (c: ConfirmationContext) =>
    c.helpContact === undefined
      ? `${c.companyName}: Msg&data rates may apply. Reply STOP to unsubscribe, START to resubscribe.`
      : `${c.companyName}: For help contact ${c.helpContact}. Msg&data rates may apply. Reply STOP to unsubscribe.`,
} as const;

/** The default confirmation text for an intent. */
export function defaultConfirmation(intent: KeywordIntent, context: ConfirmationContext): string {
  if (intent === 'opt_out') return DEFAULT_CONFIRMATIONS.optOut(context);
  if (intent === 'opt_out_all') return DEFAULT_CONFIRMATIONS.optOutAll(context);
  if (intent === 'opt_in') return DEFAULT_CONFIRMATIONS.optIn(context);
  return DEFAULT_CONFIRMATIONS.help(context);
}

/** The texts a company set for its keyword replies; null: the default of defaultConfirmation. */
export interface KeywordReplyTexts {
  optOut: string | null;
  optIn: string | null;
  help: string | null;
}

/** What an inbound keyword is answered with: the company's own text for the intent, else the CTIA wording. */
export function keywordReply(intent: KeywordIntent, companyName: string, texts: KeywordReplyTexts): string {
  const own = intent === 'opt_in' ? texts.optIn : intent === 'help' ? texts.help : texts.optOut;
  return own ?? defaultConfirmation(intent, { companyName });
}
