import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY, parsePort, parseProcessFilter, portEnvName, portFor, selectProcesses, STACK_PROCESSES, StackProcess } from './processes';

describe('the process list', () => {
  it('starts the gateway first, on 3000, and gives every process its own name and port', () => {
    expect(STACK_PROCESSES[0]).toMatchObject({ name: GATEWAY, port: 3000 });
    const names = STACK_PROCESSES.map((item) => item.name);
    const ports = STACK_PROCESSES.map((item) => item.port);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(ports).size).toBe(ports.length);
  });

  it('runs the worker apps on their health ports', () => {
    const ports = Object.fromEntries(STACK_PROCESSES.map((item) => [item.name, item.port]));
    expect(ports).toMatchObject({ otp: 3101, 'sms-dispatcher': 3102, billing: 3103, 'webhook-notifier': 3104 });
  });

  it('runs the simulators on their inspection API ports', () => {
    const ports = Object.fromEntries(STACK_PROCESSES.map((item) => [item.name, item.port]));
    expect(ports).toMatchObject({ 'smsc-simulator': 2776, 'whatsapp-simulator': 2780 });
  });

  it('points at compiled entry files under dist/out', () => {
    for (const item of STACK_PROCESSES) expect(item.entry).toMatch(/^dist\/out\/(apps|tools)\/[a-z-]+\/src\/main\.js$/);
  });

  it('gives the dispatcher a larger young generation without pretenuring and a roomier old one, and the image the same node flags as npm start', () => {
    expect(STACK_PROCESSES.find((item) => item.name === 'sms-dispatcher')?.nodeFlags).toEqual([
      '--max-semi-space-size=64',
      '--no-allocation-site-pretenuring',
      '--heap-growing-percent=200',
    ]);
    const entrypoint = readFileSync(join(__dirname, '..', '..', '..', 'docker', 'entrypoint.sh'), 'utf8');
    const imageFlags = Object.fromEntries(
      [...entrypoint.matchAll(/^\s*([a-z-]+)\) node_flags="?(.*?)"? ;;$/gm)].map(([, app, flags]) => [app, flags.split(' ')]),
    );
    const stackFlags = Object.fromEntries(
      STACK_PROCESSES.filter((item) => item.nodeFlags && item.entry.startsWith('dist/out/apps/')).map((item) => [item.name, [...(item.nodeFlags ?? [])]]),
    );
    expect(imageFlags).toEqual(stackFlags);
  });
});

describe('ports', () => {
  const otp: StackProcess = { name: 'otp', entry: 'x', port: 3101 };

  it('names the variable after the process', () => {
    expect(portEnvName('gateway')).toBe('PORT');
    expect(portEnvName('otp')).toBe('OTP_PORT');
    expect(portEnvName('webhook-notifier')).toBe('WEBHOOK_NOTIFIER_PORT');
    expect(portEnvName('smsc-simulator')).toBe('SMSC_SIMULATOR_PORT');
    // The variable the WhatsApp simulator itself reads first, so the two cannot disagree.
    expect(portEnvName('whatsapp-simulator')).toBe('WHATSAPP_SIMULATOR_PORT');
  });

  it('uses the variable when set, else the default', () => {
    expect(portFor(otp, {})).toBe(3101);
    expect(portFor(otp, { OTP_PORT: '' })).toBe(3101);
    expect(portFor(otp, { OTP_PORT: '4101' })).toBe(4101);
  });

  it('refuses what is not a port, naming the variable', () => {
    expect(() => portFor(otp, { OTP_PORT: 'abc' })).toThrow('OTP_PORT="abc" is not a port number');
    expect(() => parsePort('0', 'PORT')).toThrow('PORT="0"');
    expect(() => parsePort('70000', 'PORT')).toThrow('PORT="70000"');
    expect(() => parsePort('30.5', 'PORT')).toThrow('PORT="30.5"');
    expect(parsePort(' 8080 ', 'PORT')).toBe(8080);
  });
});

describe('choosing processes (MP_APPS)', () => {
  it('parses a comma-separated list, ignoring blanks and repeats', () => {
    expect(parseProcessFilter(undefined)).toBeUndefined();
    expect(parseProcessFilter(' , ')).toBeUndefined();
    expect(parseProcessFilter('gateway, otp,,otp')).toEqual(['gateway', 'otp']);
  });

  it('keeps the list order whatever the order asked', () => {
    const chosen = selectProcesses(STACK_PROCESSES, ['billing', 'gateway']);
    expect(chosen.map((item) => item.name)).toEqual(['gateway', 'billing']);
  });

  it('runs everything without a filter', () => {
    expect(selectProcesses(STACK_PROCESSES, undefined)).toEqual(STACK_PROCESSES);
  });

  it('refuses unknown names, listing the known ones', () => {
    expect(() => selectProcesses(STACK_PROCESSES, ['gateway', 'nope'])).toThrow(/Unknown process nope in MP_APPS \(known: gateway, otp/);
  });
});
