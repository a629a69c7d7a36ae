import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// For the tests: an OpenTelemetry collector's OTLP/HTTP traces endpoint (JSON) on 127.0.0.1.

/** One span as it arrived, with the service that sent it and its attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  attributes: Record<string, unknown>;
  links: { traceId: string; spanId: string }[];
  /** 2 when the span failed. */
  statusCode: number | undefined;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: spans are posted to `<url>/v1/traces`. */
  url: string;
  spans: ReceivedSpan[];
  close(): Promise<void>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes?: OtlpAttribute[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}
interface OtlpRequest {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const valueOf = (value: OtlpValue): unknown =>
  value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue;
const attributesOf = (attributes: OtlpAttribute[] = []) => Object.fromEntries(attributes.map(({ key, value }) => [key, valueOf(value)]));

/** The spans of one OTLP/HTTP JSON export request. */
export function spansOfRequest(request: OtlpRequest): ReceivedSpan[] {
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name']);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId || undefined,
        name: span.name,
        attributes: attributesOf(span.attributes),
        links: (span.links ?? []).map((link) => ({ traceId: link.traceId, spanId: link.spanId })),
        statusCode: span.status?.code,
      })),
    );
  });
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces' || !String(request.headers['content-type']).startsWith('application/json')) {
        response.writeHead(415).end();
        return;
      }
      spans.push(...spansOfRequest(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpRequest));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
}
