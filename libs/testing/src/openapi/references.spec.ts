import { referenceFor } from './references';

const notSignedIn = { status: 401, headers: new Headers({ 'content-type': 'application/json' }), body: '{"error":"Not signed in"}' };

describe('referenceFor', () => {
  it('holds the dashboard API to its own document and every other path to the public one', () => {
    expect(referenceFor('/dashboard/api/keys?company_id=x').file).toBe('dashboard-api.json');
    expect(referenceFor('/v1/dashboard/api/session').file).toBe('dashboard-api.json');
    expect(referenceFor('/dashboard/api').file).toBe('dashboard-api.json');
    expect(referenceFor('/dashboard/').file).toBe('openapi.json');
    expect(referenceFor('/dashboard/apiary').file).toBe('openapi.json');
    expect(referenceFor('/balance').file).toBe('openapi.json');
  });

  it('finds the dashboard operations in the dashboard document only', () => {
    const answer = { method: 'GET', path: '/dashboard/api/keys', ...notSignedIn };
    expect(referenceFor(answer.path).validator.checkAnswer(answer)).toEqual({ operation: 'GET /dashboard/api/keys', problems: [] });
    expect(referenceFor('/balance').validator.checkAnswer(answer).operation).toBeNull();
    const undocumented = { ...answer, status: 418 };
    expect(referenceFor(answer.path).validator.checkAnswer(undocumented).problems).toEqual([expect.stringMatching(/status 418 is not documented/)]);
  });
});
