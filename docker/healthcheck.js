// Container health check: GET http://127.0.0.1:<port><path> (path: first argument, default
// /health/ready) and exit 0 on a 2xx answer, 1 otherwise. The port is $PORT, else the default
// port of the app named by $APP. Uses only Node's standard library: the image has no curl.
'use strict';

const http = require('node:http');

/** Default HTTP port of each app: the gateway's API, the workers' health endpoints. */
const DEFAULT_PORTS = {
  gateway: 3000,
  otp: 3101,
  'sms-dispatcher': 3102,
  billing: 3103,
  'webhook-notifier': 3104,
};

const TIMEOUT_MS = 4000;

function fail(message) {
  console.error(`healthcheck: ${message}`);
  process.exit(1);
}

const path = process.argv[2] || '/health/ready';
const port = Number(process.env.PORT || DEFAULT_PORTS[process.env.APP || '']);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  fail('set PORT (or APP) in the container environment so the check knows where to look');
}

const request = http.get({ host: '127.0.0.1', port, path, timeout: TIMEOUT_MS }, (response) => {
  response.resume();
  const status = response.statusCode || 0;
  if (status >= 200 && status < 300) process.exit(0);
  fail(`GET ${path} answered ${status}`);
});
request.on('timeout', () => request.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
request.on('error', (error) => fail(`GET ${path} failed: ${error.message}`));
