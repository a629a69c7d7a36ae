import { certificateRefusal, PLAIN_TCP, smppSocketOptions } from './smpp-transport';

describe('smppSocketOptions', () => {
  it('is plain TCP without TLS, with no TLS option for the package to act on', () => {
    expect(smppSocketOptions('smsc.example', 2775)).toEqual({ host: 'smsc.example', port: 2775 });
    expect(smppSocketOptions('smsc.example', 2775, PLAIN_TCP)).toEqual({ host: 'smsc.example', port: 2775 });
  });

  it('over TLS verifies the certificate by default, against the given CA, for the host connected to', () => {
    expect(smppSocketOptions('smsc.example', 3550, { tls: true, ca: 'PEM' })).toEqual({
      host: 'smsc.example',
      port: 3550,
      tls: true,
      minVersion: 'TLSv1.2',
      rejectUnauthorized: true,
      ca: 'PEM',
      servername: 'smsc.example',
    });
  });

  it('sends no name for an IP address unless one is given, and takes rejectUnauthorized false only when said', () => {
    expect(smppSocketOptions('127.0.0.1', 3550, { tls: true })).not.toHaveProperty('servername');
    expect(smppSocketOptions('127.0.0.1', 3550, { tls: true, servername: 'smsc.example' })).toMatchObject({ servername: 'smsc.example' });
    expect(smppSocketOptions('127.0.0.1', 3550, { tls: true, rejectUnauthorized: false })).toMatchObject({ rejectUnauthorized: false });
  });
});

describe('certificateRefusal', () => {
  it("names a failed verification of the SMSC's certificate", () => {
    expect(certificateRefusal(Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }))).toBe(
      'DEPTH_ZERO_SELF_SIGNED_CERT',
    );
    expect(certificateRefusal(Object.assign(new Error("Hostname/IP does not match certificate's altnames"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }))).toBe(
      'ERR_TLS_CERT_ALTNAME_INVALID',
    );
  });

  it('is undefined for errors a retry may mend', () => {
    expect(certificateRefusal(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeUndefined();
    expect(certificateRefusal(new Error('socket hang up'))).toBeUndefined();
    expect(certificateRefusal(null)).toBeUndefined();
  });
});
