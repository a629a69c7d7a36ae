import { parseMoney } from '@mp/billing-domain';
import {
  marginRange,
  marginReport,
  marginReportCsv,
  marginReportJson,
  MarginReportError,
  parseMarginDimensions,
  withMargin,
  type MarginCounts,
} from './margins';

const money = parseMoney;
const counts = (overrides: Partial<MarginCounts>): MarginCounts => ({
  parts: 1,
  charged: 0n,
  refunded: 0n,
  cost: 0n,
  uncostedParts: 0,
  uncostedCharged: 0n,
  timedOutParts: 0,
  ...overrides,
});

describe('the margin of summed parts', () => {
  it('is the net charged less the carriers’ cost, exactly, with its percentage of the net charged', () => {
    const sums = withMargin(counts({ parts: 3, charged: money('0.1050'), refunded: money('0.0350'), cost: money('0.0123') }));
    expect(sums.netCharged).toBe(money('0.0700'));
    expect(sums.margin).toBe(money('0.0577'));
    expect(sums.marginHundredthsPercent).toBe(8243n); // 82.428…%
  });

  it('leaves parts with an unknown cost out of the margin instead of counting them as profit', () => {
    const sums = withMargin(counts({ parts: 4, charged: money('0.2000'), cost: money('0.0100'), uncostedParts: 2, uncostedCharged: money('0.1000') }));
    expect(sums.netCharged).toBe(money('0.2000'));
    expect(sums.margin).toBe(money('0.0900'));
    expect(sums.marginHundredthsPercent).toBe(9000n);
  });

  it('is negative when a carrier costs more than the price, rounded half away from zero', () => {
    const sums = withMargin(counts({ charged: money('0.0300'), cost: money('0.0301') }));
    expect(sums.margin).toBe(money('-0.0001'));
    expect(sums.marginHundredthsPercent).toBe(-33n); // -0.333…%
    expect(withMargin(counts({ charged: money('0.0008'), cost: money('0.0007') })).marginHundredthsPercent).toBe(1250n);
    expect(withMargin(counts({ charged: 16n, cost: 15n })).marginHundredthsPercent).toBe(625n);
    expect(withMargin(counts({ charged: 800n, cost: 801n })).marginHundredthsPercent).toBe(-13n); // -0.125% → -0.13
  });

  it('has no percentage when nothing with a known cost was charged', () => {
    expect(withMargin(counts({ charged: money('0.05'), refunded: money('0.05') })).marginHundredthsPercent).toBeNull();
    expect(withMargin(counts({ charged: money('0.05'), uncostedParts: 1, uncostedCharged: money('0.05') })).marginHundredthsPercent).toBeNull();
  });

  it('stays exact far beyond what a float holds', () => {
    const sums = withMargin(counts({ parts: 1e9, charged: 123456789012345678n, cost: 123456789012345677n }));
    expect(sums.margin).toBe(1n);
  });
});

describe('the margin report', () => {
  it('sums groups of one country read from different prefixes into one line, sorted, none last, with the total', () => {
    const report = marginReport(
      ['day', 'country', 'carrier'],
      [
        { key: { day: '2026-11-02', country: 'GB', carrier: 'b' }, counts: counts({ charged: 300n, cost: 100n }) },
        { key: { day: '2026-11-01', country: null, carrier: 'a' }, counts: counts({ charged: 100n, cost: 50n }) },
        { key: { day: '2026-11-01', country: 'GB', carrier: null }, counts: counts({ charged: 100n, refunded: 100n, uncostedParts: 1 }) },
        { key: { day: '2026-11-01', country: 'GB', carrier: 'a' }, counts: counts({ charged: 200n, cost: 20n }) },
        { key: { day: '2026-11-01', country: 'GB', carrier: 'a' }, counts: counts({ parts: 2, charged: 400n, cost: 40n }) },
      ],
    );
    expect(report.lines.map((line) => [line.key, line.parts, line.margin])).toEqual([
      [{ day: '2026-11-01', country: 'GB', carrier: 'a' }, 3, 540n],
      [{ day: '2026-11-01', country: 'GB', carrier: null }, 1, 0n],
      [{ day: '2026-11-01', country: null, carrier: 'a' }, 1, 50n],
      [{ day: '2026-11-02', country: 'GB', carrier: 'b' }, 1, 200n],
    ]);
    expect(report.total).toMatchObject({ parts: 6, charged: 1100n, refunded: 100n, netCharged: 1000n, cost: 210n, uncostedParts: 1, margin: 790n });
  });

  it('counts the parts that timed out on a carrier on its line, apart from the parts it took and out of the margin', () => {
    const report = marginReport(
      ['carrier'],
      [
        { key: { carrier: 'b' }, counts: counts({ parts: 2, charged: 1000n, cost: 400n, timedOutParts: 1 }) },
        { key: { carrier: 'a' }, counts: counts({ parts: 0, timedOutParts: 2 }) },
        { key: { carrier: 'a' }, counts: counts({ parts: 1, charged: 500n, cost: 100n, timedOutParts: 1 }) },
      ],
    );
    expect(report.lines.map((line) => [line.key.carrier, line.parts, line.timedOutParts, line.margin])).toEqual([
      ['a', 1, 3, 400n],
      ['b', 2, 1, 600n],
    ]);
    expect(report.total).toMatchObject({ parts: 3, timedOutParts: 4, cost: 500n, margin: 1000n });
    const [line] = marginReportJson(marginReport(['carrier'], [{ key: { carrier: 'a' }, counts: counts({ parts: 0, timedOutParts: 2 }) }]), {
      from: '',
      to: '',
    }).lines;
    expect(line).toMatchObject({ carrier: 'a', parts: 0, cost: 0, margin: 0, margin_percent: null, timed_out_parts: 2 });
  });

  it('answers JSON with only the dimensions asked for and amounts of at most 4 decimals', () => {
    const report = marginReport(['carrier'], [{ key: { carrier: 'acme' }, counts: counts({ parts: 2, charged: money('0.07'), cost: money('0.0123') }) }]);
    expect(marginReportJson(report, { from: '2026-11-01', to: '2026-11-30' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-30',
      by: ['carrier'],
      lines: [
        {
          carrier: 'acme',
          parts: 2,
          charged: 0.07,
          refunded: 0,
          net_charged: 0.07,
          cost: 0.0123,
          uncosted_parts: 0,
          uncosted_charged: 0,
          margin: 0.0577,
          margin_percent: 82.43,
          timed_out_parts: 0,
        },
      ],
      total: {
        parts: 2,
        charged: 0.07,
        refunded: 0,
        net_charged: 0.07,
        cost: 0.0123,
        uncosted_parts: 0,
        uncosted_charged: 0,
        margin: 0.0577,
        margin_percent: 82.43,
        timed_out_parts: 0,
      },
    });
  });

  it('writes CSV with exact amounts, empty fields for none, formulas defused and the total last', () => {
    const report = marginReport(
      ['country', 'carrier'],
      [
        { key: { country: 'DE', carrier: '=evil' }, counts: counts({ charged: money('0.05'), cost: money('0.06') }) },
        { key: { country: null, carrier: null }, counts: counts({ charged: money('0.05'), refunded: money('0.05'), uncostedParts: 1 }) },
        { key: { country: 'DE', carrier: 'slow' }, counts: counts({ parts: 0, timedOutParts: 2 }) },
      ],
    );
    expect(marginReportCsv(report).split('\r\n')).toEqual([
      'country,carrier,parts,charged,refunded,net_charged,cost,uncosted_parts,uncosted_charged,margin,margin_percent,timed_out_parts',
      "DE,'=evil,1,0.0500,0.0000,0.0500,0.0600,0,0.0000,-0.0100,-20.00,0",
      'DE,slow,0,0.0000,0.0000,0.0000,0.0000,0,0.0000,0.0000,,2',
      ',,1,0.0500,0.0500,0.0000,0.0000,1,0.0000,0.0000,,0',
      'total,total,2,0.1000,0.0500,0.0500,0.0600,1,0.0000,-0.0100,-20.00,2',
      '',
    ]);
  });
});

describe('what the operator asks for', () => {
  it('reads the dimensions in the report’s order, each once', () => {
    expect(parseMarginDimensions('carrier,day')).toEqual(['day', 'carrier']);
    expect(parseMarginDimensions('day, country ,carrier')).toEqual(['day', 'country', 'carrier']);
    expect(parseMarginDimensions('day,day')).toBeNull();
    expect(parseMarginDimensions('route')).toBeNull();
    expect(parseMarginDimensions('')).toBeNull();
  });

  it('reads UTC days, both included, at most 366 of them', () => {
    expect(marginRange('2026-11-01', '2026-11-01')).toEqual({ from: new Date('2026-11-01T00:00:00Z'), before: new Date('2026-11-02T00:00:00Z') });
    expect(marginRange('2024-01-01', '2024-12-31').before).toEqual(new Date('2025-01-01T00:00:00Z'));
    expect(() => marginRange('2024-01-01', '2025-01-01')).toThrow('the range must be at most 366 days');
    expect(() => marginRange('2026-11-02', '2026-11-01')).toThrow('from must not be after to');
    expect(() => marginRange('2026-02-30', '2026-03-01')).toThrow(new MarginReportError('from must be a date YYYY-MM-DD'));
    expect(() => marginRange('2026-11-01', '1 Dec')).toThrow('to must be a date YYYY-MM-DD');
  });
});
