// What the "Send a test message" form checks before sending: the API checks again (the number's
// plan, the sender's rules, the price), and its refusal is shown as it says.

export interface TestMessageValues {
  to: string;
  message: string;
  from: string;
}

export const MAX_TEST_MESSAGE = 1600;
/** What people type around a number's digits. */
const NUMBER_TYPED = /^\+?[0-9 ().-]+$/;
const SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$|^[0-9]{1,15}$/;

export function toError(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return 'Enter the number to send to';
  if (!NUMBER_TYPED.test(trimmed) || trimmed.replace(/[^0-9]/g, '').length < 6) return 'Enter one number in international format, e.g. +447911123456';
  return null;
}

export function messageError(value: string): string | null {
  if (value.trim() === '') return 'Enter the text to send';
  if ([...value].length > MAX_TEST_MESSAGE) return `The text is ${[...value].length} characters; at most ${MAX_TEST_MESSAGE}`;
  return null;
}

export function senderError(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  return SENDER.test(trimmed) ? null : 'A sender is 1 to 11 letters, digits or spaces with a letter, or a number of up to 15 digits';
}

/**
 * The body of POST /messages/test: the number as + and its digits (an international 00 read as
 * the +), no sender when none was given.
 */
export function testMessageBody(values: TestMessageValues): { to: string; message: string; from?: string } {
  const digits = values.to.replace(/[^0-9]/g, '');
  const to = `+${values.to.trim().startsWith('+') ? digits : digits.replace(/^00/, '')}`;
  const from = values.from.trim();
  return from ? { to, message: values.message, from } : { to, message: values.message };
}
