import { classifyKeyword, defaultConfirmation, keywordReply, normaliseKeyword, RECIPIENT_OPTED_OUT } from './opt-out-keywords';

describe('classifyKeyword', () => {
  it.each(['STOP', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT', 'ARRET', 'TD'])('%s opts out of the number', (word) => {
    expect(classifyKeyword(word)).toBe('opt_out');
  });

  it('STOPALL opts out of every number of the company', () => {
    expect(classifyKeyword('stopall')).toBe('opt_out_all');
    expect(classifyKeyword('Stop All')).toBe('opt_out_all');
  });

  it.each(['START', 'UNSTOP', 'YES'])('%s opts back in', (word) => {
    expect(classifyKeyword(word)).toBe('opt_in');
  });

  it.each(['HELP', 'INFO'])('%s asks for help', (word) => {
    expect(classifyKeyword(word)).toBe('help');
  });

  it('ignores case, surrounding space and punctuation', () => {
    expect(classifyKeyword('  stop.  ')).toBe('opt_out');
    expect(classifyKeyword('Stop!')).toBe('opt_out');
    expect(classifyKeyword('"opt-out"')).toBe('opt_out');
    expect(classifyKeyword('\tArrêt\n')).toBe('opt_out');
    expect(classifyKeyword('help?')).toBe('help');
  });

  it('is null unless the whole text is a keyword', () => {
    expect(classifyKeyword('stop sending me offers')).toBeNull();
    expect(classifyKeyword('yes please')).toBeNull();
    expect(classifyKeyword('')).toBeNull();
    expect(classifyKeyword(' ... ')).toBeNull();
    expect(classifyKeyword('STOPP')).toBeNull();
  });

  it("adds the operator's own opt-out keywords, matched the same way", () => {
    expect(classifyKeyword('remove me', ['REMOVEME'])).toBe('opt_out');
    expect(classifyKeyword('Désabonner', ['desabonner'])).toBe('opt_out');
    expect(classifyKeyword('remove me')).toBeNull();
  });

  it('does not let an extra keyword shadow a standard one', () => {
    expect(classifyKeyword('START', ['START'])).toBe('opt_in');
  });
});

describe('normaliseKeyword', () => {
  it('keeps letters and digits, upper-cased, accents folded', () => {
    expect(normaliseKeyword(' Arrêt! ')).toBe('ARRET');
    expect(normaliseKeyword('Stop 2')).toBe('STOP2');
  });
});

describe('defaultConfirmation', () => {
  const context = { companyName: 'Acme', helpContact: 'help@acme.example' };

  it('confirms an opt-out with how to opt back in, and sends no more', () => {
    const text = defaultConfirmation('opt_out', context);
    expect(text).toBe('Acme: You are unsubscribed and will receive no further messages. Reply START to resubscribe.');
  });

  it('confirms an opt-in with how to opt out', () => {
    expect(defaultConfirmation('opt_in', context)).toContain('Reply STOP to unsubscribe');
    expect(defaultConfirmation('opt_out_all', context)).toContain('all messages');
  });

  it("answers HELP with the company's name and help contact", () => {
    expect(defaultConfirmation('help', context)).toBe('Acme: For help contact help@acme.example. Msg&data rates may apply. Reply STOP to unsubscribe.');
  });

  it('names the refusal error', () => {
    expect(RECIPIENT_OPTED_OUT).toBe('Recipient has opted out');
  });
});

describe('keywordReply', () => {
  const none = { optOut: null, optIn: null, help: null };

  it("answers with the company's own text for the intent", () => {
    const texts = { optOut: 'Bye from Acme', optIn: 'Welcome back', help: 'Call 0800 000' };
    expect(keywordReply('opt_out', 'Acme', texts)).toBe('Bye from Acme');
    expect(keywordReply('opt_out_all', 'Acme', texts)).toBe('Bye from Acme');
    expect(keywordReply('opt_in', 'Acme', texts)).toBe('Welcome back');
    expect(keywordReply('help', 'Acme', texts)).toBe('Call 0800 000');
  });

  it('falls back to the CTIA wording with the company name, HELP without a contact pointing to the keywords', () => {
    expect(keywordReply('opt_out', 'Acme', none)).toBe(defaultConfirmation('opt_out', { companyName: 'Acme' }));
    expect(keywordReply('opt_out_all', 'Acme', none)).toContain('all messages');
    expect(keywordReply('help', 'Acme', none)).toBe('Acme: Msg&data rates may apply. Reply STOP to unsubscribe, START to resubscribe.');
  });
});
