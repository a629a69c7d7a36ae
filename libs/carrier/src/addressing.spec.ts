import { destinationAddress, sourceAddress } from './addressing';

describe('sourceAddress', () => {
  it('sends an alphanumeric sender as TON 5 NPI 0', () => {
    expect(sourceAddress('Acme')).toEqual({ ton: 5, npi: 0, address: 'Acme' });
    expect(sourceAddress('My Shop 24')).toEqual({ ton: 5, npi: 0, address: 'My Shop 24' });
  });

  it('sends a number as TON 1 NPI 1 without +', () => {
    expect(sourceAddress('+15550001111')).toEqual({ ton: 1, npi: 1, address: '15550001111' });
    expect(sourceAddress('12345')).toEqual({ ton: 1, npi: 1, address: '12345' });
  });

  it('refuses what is neither', () => {
    for (const sender of ['', 'Twelve chars', 'Acme!', '+1555000111122223', '++1']) expect(sourceAddress(sender)).toBeNull();
  });
});

describe('destinationAddress', () => {
  it('sends E.164 as TON 1 NPI 1 without +', () => {
    expect(destinationAddress('+447700900123')).toEqual({ ton: 1, npi: 1, address: '447700900123' });
  });

  it('refuses what is not E.164 with +', () => {
    for (const number of ['447700900123', '+0447700900123', '+44 7700 900123', '+4477009001231234']) expect(destinationAddress(number)).toBeNull();
  });
});
