import { messageState, receiptText, smppDate } from './receipt';

describe('delivery receipt text', () => {
  const submittedAt = new Date(Date.UTC(2025, 0, 2, 3, 4, 59));
  const doneAt = new Date(Date.UTC(2025, 11, 31, 23, 59));

  it('has the standard fields and the first 20 characters of the text', () => {
    expect(receiptText({ messageId: 'abc123', submittedAt, doneAt, stat: 'DELIVRD', text: 'Your code is 123456, valid 5 minutes' })).toBe(
      'id:abc123 sub:001 dlvrd:001 submit date:2501020304 done date:2512312359 stat:DELIVRD err:000 text:Your code is 123456,',
    );
  });

  it('says dlvrd:000 err:001 for an undelivered part, and counts characters, not UTF-16 units', () => {
    const text = receiptText({ messageId: 'x', submittedAt, doneAt, stat: 'UNDELIV', text: '😀'.repeat(25) });
    expect(text).toContain('dlvrd:000');
    expect(text).toContain('stat:UNDELIV err:001');
    expect(text.endsWith(`text:${'😀'.repeat(20)}`)).toBe(true);
  });

  it('maps stat to message_state', () => {
    expect(messageState('DELIVRD')).toBe(2);
    expect(messageState('UNDELIV')).toBe(5);
  });

  it('writes dates as YYMMDDhhmm in UTC', () => {
    expect(smppDate(new Date(Date.UTC(2031, 8, 9, 7, 5)))).toBe('3109090705');
  });

  it('gives every instant of a minute that minute, and the next minute its own', () => {
    expect(smppDate(new Date(Date.UTC(2031, 8, 9, 7, 5, 59, 999)))).toBe('3109090705');
    expect(smppDate(new Date(Date.UTC(2031, 8, 9, 7, 6)))).toBe('3109090706');
    expect(smppDate(new Date(Date.UTC(2031, 8, 9, 7, 5, 30)))).toBe('3109090705');
  });
});
