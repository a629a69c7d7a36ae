import { parsePrometheusText, sampleSum } from '@mp/testing';
import type { Queue } from 'bullmq';
import { HttpMetrics, UNMATCHED_ROUTE } from './http-metrics';
import { PlatformMetrics } from './platform-metrics';
import { backlogOf, QUEUE_READING_TTL_MS, refreshQueueDepths, type QueueSource } from './queue-depths';

const fresh = () => new PlatformMetrics('gateway', { defaultMetrics: false });

describe('PlatformMetrics', () => {
  it('labels every series with the app and exports only the metrics asked for', async () => {
    const metrics = fresh();
    metrics.counter('mp_otp_sent_total').inc({ channel: 'sms' }, 2);
    const { text } = await metrics.scrape();
    expect(text).toContain('mp_otp_sent_total{channel="sms",app="gateway"} 2');
    expect(text).not.toContain('mp_ledger_balance_mismatches');
  });

  it('gives the same metric to every caller', () => {
    const metrics = fresh();
    expect(metrics.counter('mp_otp_blocked_total')).toBe(metrics.counter('mp_otp_blocked_total'));
  });

  it('runs the refreshers before rendering; a failing one is reported and the rest still render', async () => {
    const metrics = fresh();
    const pending = metrics.gauge('mp_outbox_pending');
    metrics.refreshOnScrape('outbox', () => pending.set(7));
    metrics.refreshOnScrape('broken', () => Promise.reject(new Error('redis down')));
    const { text, failures } = await metrics.scrape();
    expect(text).toContain('mp_outbox_pending{app="gateway"} 7');
    expect(failures.map((f) => f.name)).toEqual(['broken']);
  });
});

describe('HttpMetrics', () => {
  it('counts by method, route pattern and status; unknown routes and methods by a fixed name; leaves out excluded routes', async () => {
    const metrics = fresh();
    const http = new HttpMetrics(metrics, new Set(['/metrics']));
    http.record('GET', '/sms/messages/:id', 200, 0.004);
    http.record('GET', '/sms/messages/:id', 200, 0.002);
    http.record('POST', '/sms/send', 400, 0.001);
    http.record('GET', undefined, 404, 0.001);
    http.record('BREW', undefined, 404, 0.001);
    http.record('GET', '/metrics', 200, 0.001);
    const { text } = await metrics.scrape();
    const scrape = parsePrometheusText(text);
    const requests = (labels: Record<string, string>) => sampleSum(scrape, 'mp_http_requests_total', { app: 'gateway', ...labels });
    expect(requests({ method: 'GET', route: '/sms/messages/:id', status: '200' })).toBe(2);
    expect(requests({ method: 'POST', route: '/sms/send', status: '400' })).toBe(1);
    expect(requests({ method: 'GET', route: UNMATCHED_ROUTE, status: '404' })).toBe(1);
    expect(requests({ method: 'other', route: UNMATCHED_ROUTE, status: '404' })).toBe(1);
    expect(requests({})).toBe(5);
    expect(sampleSum(scrape, 'mp_http_request_duration_seconds_count', { method: 'GET', route: '/sms/messages/:id', status: '200' })).toBe(2);
    expect(scrape.types.get('mp_http_request_duration_seconds')).toBe('histogram');
    expect(text).not.toContain('route="/metrics"');
  });
});

describe('queue depths', () => {
  const counts = { waiting: 3, prioritized: 4, delayed: 5, active: 1, failed: 2 };
  function source(due: number) {
    const calls = { counts: 0 };
    const queue = {
      keys: { delayed: 'bull:q:delayed' },
      getJobCounts: () => {
        calls.counts++;
        return Promise.resolve(counts);
      },
    } as unknown as Queue;
    const zcount = jest.fn((_key: string, _min: number, _max: number) => Promise.resolve(due));
    const src: QueueSource = { queue: () => queue, redis: () => ({ zcount }) };
    return { src, calls, zcount };
  }

  it('splits delayed jobs into due and not yet due, and the backlog is waiting + prioritized + due', async () => {
    const metrics = fresh();
    const { src, zcount } = source(2);
    refreshQueueDepths(metrics, ['campaign.dispatch'], src, () => 1_000);
    const { text } = await metrics.scrape();
    expect(zcount).toHaveBeenCalledWith('bull:q:delayed', 0, 1001 * 0x1000 - 1);
    expect(text).toContain('mp_queue_jobs{queue="campaign.dispatch",state="delayed",app="gateway"} 3');
    expect(text).toContain('mp_queue_jobs{queue="campaign.dispatch",state="due",app="gateway"} 2');
    expect(text).toContain('mp_queue_jobs{queue="campaign.dispatch",state="prioritized",app="gateway"} 4');
    expect(text).toContain('mp_queue_backlog{queue="campaign.dispatch",app="gateway"} 9');
    expect(backlogOf({ waiting: 1, prioritized: 2, delayed: 100, due: 3, active: 50, failed: 9 })).toBe(6);
  });

  it('reads Redis once per QUEUE_READING_TTL_MS however often it is scraped', async () => {
    const metrics = fresh();
    const { src, calls } = source(0);
    let now = 10_000;
    refreshQueueDepths(metrics, ['sms.dispatch'], src, () => now);
    await metrics.scrape();
    now += QUEUE_READING_TTL_MS - 1;
    await metrics.scrape();
    expect(calls.counts).toBe(1);
    now += 1;
    await metrics.scrape();
    expect(calls.counts).toBe(2);
  });
});
