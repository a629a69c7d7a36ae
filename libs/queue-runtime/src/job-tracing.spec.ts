import { markTracingOn, startSpan, withSpan } from '@mp/observability';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { runInJobSpan, startEnqueueSpan, tracedJobData, traceparentOf } from './job-tracing';

const job = (data: unknown) => ({ queue: 'sms.dispatch', jobId: 'sms-batch-1', name: 'sms.submit', attempt: 2, data });

describe('job tracing, off', () => {
  it('leaves job data as it is and runs jobs without spans', async () => {
    const data = { messageIds: ['m-1'] };
    expect(tracedJobData(data)).toBe(data);
    expect(await runInJobSpan(job(data), () => Promise.resolve('ran'))).toBe('ran');
    expect(startEnqueueSpan('outbox relay', [{ queue: 'sms.dispatch', data }])).toBeUndefined();
  });

  it('reads a traceparent only where one is', () => {
    expect(traceparentOf({ messageIds: [] })).toBeUndefined();
    expect(traceparentOf(null)).toBeUndefined();
    expect(traceparentOf({ traceparent: 7 })).toBeUndefined();
    expect(traceparentOf({ traceparent: '00-a-b-01' })).toBe('00-a-b-01');
  });
});

describe('job tracing, on', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => {
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    markTracingOn();
  });
  afterEach(() => exporter.reset());

  it('a job made during a request carries its trace, and its run continues it', async () => {
    const request = startSpan('POST /sms/send');
    const data = withSpan(request, () => tracedJobData({ messageIds: ['m-1'] }));
    request?.end();
    expect(data).toEqual({ messageIds: ['m-1'], traceparent: expect.stringMatching(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/) });
    await runInJobSpan(job(data), () => Promise.resolve());
    const [requestSpan, jobSpan] = exporter.getFinishedSpans();
    expect(jobSpan.name).toBe('sms.dispatch process');
    expect(jobSpan.spanContext().traceId).toBe(requestSpan.spanContext().traceId);
    expect(jobSpan.parentSpanContext?.spanId).toBe(requestSpan.spanContext().spanId);
    expect(jobSpan.attributes).toMatchObject({ 'messaging.destination.name': 'sms.dispatch', 'messaging.message.id': 'sms-batch-1', 'bullmq.job.attempt': 2 });
  });

  it('a job made before tracing (no traceparent) runs in a trace of its own; a failed run is marked', async () => {
    await expect(runInJobSpan(job({ messageIds: ['m-1'] }), () => Promise.reject(new Error('no bind')))).rejects.toThrow('no bind');
    const [span] = exporter.getFinishedSpans();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.status.code).toBe(2);
  });

  it("the sweeper's enqueue links the traces of the jobs it carries", () => {
    const request = startSpan('POST /sms/send');
    const data = withSpan(request, () => tracedJobData({ messageIds: ['m-1'] }));
    request?.end();
    startEnqueueSpan(
      'outbox sweep',
      [
        { queue: 'sms.dispatch', data },
        { queue: 'sms.dispatch', data: { messageIds: ['old'] } },
      ],
      true,
    )?.end();
    const sweep = exporter.getFinishedSpans()[1];
    expect(sweep.links.map((link) => link.context.spanId)).toEqual([request?.spanContext().spanId]);
    expect(sweep.attributes['messaging.batch.message_count']).toBe(2);
  });
});
