import { parseReport, type SmscBindReport } from './platform-status';

const bind: SmscBindReport = { dispatcher: 'host:1', route: 'default', bind: 1, target: '127.0.0.1:2775', state: 'bound', since: '2026-11-26T10:00:00.000Z' };

describe('parseReport', () => {
  it('reads the binds of a report', () => {
    expect(parseReport(JSON.stringify([bind, { ...bind, bind: 2, state: 'connecting' }]))).toEqual([bind, { ...bind, bind: 2, state: 'connecting' }]);
  });

  it('skips what is not a report: a missing key, bad JSON, another shape', () => {
    expect(parseReport(null)).toEqual([]);
    expect(parseReport('{not json')).toEqual([]);
    expect(parseReport(JSON.stringify({ route: 'default' }))).toEqual([]);
    expect(parseReport(JSON.stringify([{ ...bind, bind: '1' }, null, bind]))).toEqual([bind]);
  });
});
