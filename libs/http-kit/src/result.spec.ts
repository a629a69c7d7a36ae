import { ApiError } from './api-error';
import { fail, ok, valueOrBadRequest } from './result';

describe('valueOrBadRequest', () => {
  it('answers the value of a good result', () => {
    expect(valueOrBadRequest(ok({ page: 2 }))).toEqual({ page: 2 });
  });

  it('throws a 400 whose error is the text of a bad one', () => {
    let thrown: unknown;
    try {
      valueOrBadRequest(fail('limit must be an integer from 1 to 100'));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect((thrown as ApiError).getStatus()).toBe(400);
    expect((thrown as ApiError).getResponse()).toEqual({ error: 'limit must be an integer from 1 to 100' });
  });
});
