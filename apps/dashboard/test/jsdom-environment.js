// jsdom, plus the fetch API's classes from Node (the router makes its redirects Responses);
// jsdom's own AbortSignal and FormData stay, since its DOM checks for them.
const JSDOMEnvironment = require('jest-environment-jsdom').default;

class ConsoleEnvironment extends JSDOMEnvironment {
  constructor(...args) {
    super(...args);
    Object.assign(this.global, { Response, Request, Headers, ReadableStream, TextEncoder, TextDecoder, structuredClone });
  }
}

module.exports = ConsoleEnvironment;
