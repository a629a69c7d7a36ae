import { messageError, senderError, testMessageBody, toError } from './test-message-rules';

describe('the test message form', () => {
  it('asks for one number in international format', () => {
    expect(toError('')).toBe('Enter the number to send to');
    expect(toError('  ')).toBe('Enter the number to send to');
    expect(toError('+44 7911 123456')).toBeNull();
    expect(toError('(0044) 7911-123456')).toBeNull();
    expect(toError('+447911123456, +447911123457')).toMatch(/^Enter one number/);
    expect(toError('call me')).toMatch(/^Enter one number/);
    expect(toError('+44')).toMatch(/^Enter one number/);
  });

  it('asks for a text of at most 1600 characters, counted as characters a person sees', () => {
    expect(messageError('')).toBe('Enter the text to send');
    expect(messageError('Hello')).toBeNull();
    expect(messageError('😀'.repeat(1600))).toBeNull();
    expect(messageError('x'.repeat(1601))).toBe('The text is 1601 characters; at most 1600');
  });

  it('takes no sender, or one the API allows', () => {
    expect(senderError('')).toBeNull();
    expect(senderError('Acme Shop')).toBeNull();
    expect(senderError('447911123456')).toBeNull();
    expect(senderError('Acme Shop Ltd')).toMatch(/^A sender is/);
    expect(senderError('12 34')).toMatch(/^A sender is/);
    expect(senderError('Acme!')).toMatch(/^A sender is/);
  });

  it('sends the number as + and its digits (00 read as +), and no sender when none was typed', () => {
    expect(testMessageBody({ to: '(0044) 7911-123 456', message: 'Hi', from: ' ' })).toEqual({ to: '+447911123456', message: 'Hi' });
    expect(testMessageBody({ to: '447911123456', message: 'Hi', from: '' })).toEqual({ to: '+447911123456', message: 'Hi' });
    expect(testMessageBody({ to: '+44 7911 123456', message: 'Hi', from: ' Acme ' })).toEqual({ to: '+447911123456', message: 'Hi', from: 'Acme' });
  });
});
