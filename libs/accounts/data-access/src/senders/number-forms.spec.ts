import { receivedNumberForms } from './number-forms';

describe('receivedNumberForms', () => {
  it('looks a long number up in E.164 however the carrier wrote it', () => {
    expect(receivedNumberForms('+447400900123')).toEqual(['+447400900123']);
    expect(receivedNumberForms('447400900123')).toEqual(['+447400900123']);
    expect(receivedNumberForms(' 447400900123 ')).toEqual(['+447400900123']);
    expect(receivedNumberForms('00447400900123')).toEqual(['+447400900123']);
    expect(receivedNumberForms('+00447400900123')).toEqual(['+447400900123']);
  });

  it('looks a short code up as its digits first, or as E.164 first when the carrier said international', () => {
    expect(receivedNumberForms('76543')).toEqual(['76543', '+76543']);
    expect(receivedNumberForms('12345678')).toEqual(['12345678', '+12345678']);
    expect(receivedNumberForms('+76543')).toEqual(['+76543', '76543']);
    expect(receivedNumberForms('007654')).toEqual(['007654', '+007654']);
  });

  it('finds no number in anything else', () => {
    expect(receivedNumberForms('Acme')).toEqual([]);
    expect(receivedNumberForms('')).toEqual([]);
    expect(receivedNumberForms('+44 7400 900123')).toEqual([]);
    expect(receivedNumberForms('4474009001234567')).toEqual([]);
  });
});
