import { escapeLiteral } from 'pg';
import { quoteLiteral } from './sql-literal';

describe('quoteLiteral', () => {
  it.each([
    ['', "''"],
    ['plain', "'plain'"],
    ["it's", "'it''s'"],
    ["''", "''''''"],
    ['a\\b', " E'a\\\\b'"],
    ["\\'", " E'\\\\'''"],
    ['{"a\\"b",NULL}', ` E'{"a\\\\"b",NULL}'`],
    ['Ünïcödé 🙂 \n\t', "'Ünïcödé 🙂 \n\t'"],
  ])('writes %j as pg escapeLiteral does', (text, literal) => {
    expect(quoteLiteral(text)).toBe(literal);
    expect(quoteLiteral(text)).toBe(escapeLiteral(text));
  });

  it('agrees with pg escapeLiteral on random texts of quotes, backslashes and letters', () => {
    const alphabet = ["'", '\\', 'a', '"', ' ', 'é', '{', ','];
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: n % 40 }, (_, i) => alphabet[(n * 7 + i * 13 + ((n * i) % 5)) % alphabet.length]).join('');
      expect(quoteLiteral(text)).toBe(escapeLiteral(text));
    }
  });
});
