// Integration and end-to-end suites start processes and wait on real services: give each test
// and hook time enough on a busy 2-core machine (Jest's testTimeout is not a per-project option).
jest.setTimeout(Number(process.env.MP_TEST_TIMEOUT_MS || 120000));
