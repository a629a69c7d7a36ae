import { parsePrometheusText, sampleSum } from './prometheus-text';

describe('parsePrometheusText', () => {
  it('reads samples with their labels, escapes, NaN and Inf, and the TYPE of each family', () => {
    const scrape = parsePrometheusText(
      [
        '# HELP mp_x_total Things.',
        '# TYPE mp_x_total counter',
        'mp_x_total{kind="a",app="gateway"} 2',
        'mp_x_total{kind="b \\"quoted\\"",app="gateway"} 3.5',
        'lag{app="gateway"} Nan',
        'bucket{le="+Inf"} +Inf',
        'plain 1e3',
        '',
      ].join('\n'),
    );
    expect(scrape.types.get('mp_x_total')).toBe('counter');
    expect(sampleSum(scrape, 'mp_x_total')).toBe(5.5);
    expect(sampleSum(scrape, 'mp_x_total', { kind: 'b "quoted"' })).toBe(3.5);
    expect(scrape.samples.find((s) => s.name === 'lag')?.value).toBeNaN();
    expect(scrape.samples.find((s) => s.name === 'bucket')).toEqual({ name: 'bucket', labels: { le: '+Inf' }, value: Infinity });
    expect(sampleSum(scrape, 'plain')).toBe(1000);
    expect(sampleSum(scrape, 'absent')).toBe(0);
  });

  it('refuses a line that is neither a comment it knows nor a sample', () => {
    expect(() => parsePrometheusText('mp_x_total{kind=a} 1')).toThrow('bad labels');
    expect(() => parsePrometheusText('mp_x_total 1 2 3')).toThrow('not a sample');
    expect(() => parsePrometheusText('# nonsense')).toThrow('not a HELP or TYPE line');
  });
});
