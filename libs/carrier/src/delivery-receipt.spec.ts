import { parseDeliveryReceipt, parseSmppDate } from './delivery-receipt';

const STANDARD = 'id:0a1b2c3d4e5f6071 sub:001 dlvrd:001 submit date:2501020304 done date:2501020305 stat:DELIVRD err:000 text:Your code is 123456';

describe('parseDeliveryReceipt', () => {
  it('reads the standard format', () => {
    expect(parseDeliveryReceipt(STANDARD)).toEqual({
      carrierMessageId: '0a1b2c3d4e5f6071',
      stat: 'DELIVRD',
      err: '000',
      doneAt: new Date(Date.UTC(2025, 0, 2, 3, 5)),
      raw: STANDARD,
    });
  });

  it('prefers the receipted_message_id and message_state TLVs to the text', () => {
    expect(parseDeliveryReceipt(STANDARD, { receipted_message_id: 'FROM-TLV', message_state: 5 })).toMatchObject({
      carrierMessageId: 'FROM-TLV',
      stat: 'UNDELIV',
    });
    expect(parseDeliveryReceipt('', { receipted_message_id: 'X', message_state: 3 })).toMatchObject({
      carrierMessageId: 'X',
      stat: 'EXPIRED',
      err: '',
      doneAt: null,
    });
  });

  it('tolerates case, field order, done_date, seconds and long stat words', () => {
    const text = 'STAT:delivered ERR:0 Done_Date:250102030559 ID:abc SUB:001 DLVRD:001';
    expect(parseDeliveryReceipt(text)).toMatchObject({ carrierMessageId: 'abc', stat: 'DELIVRD', err: '0', doneAt: new Date(Date.UTC(2025, 0, 2, 3, 5, 59)) });
  });

  it('does not read fields from the quoted text', () => {
    const text = 'id:real sub:001 dlvrd:000 submit date:2501020304 done date:2501020305 stat:UNDELIV err:001 text:id:fake stat:DELIVRD';
    expect(parseDeliveryReceipt(text)).toMatchObject({ carrierMessageId: 'real', stat: 'UNDELIV', err: '001' });
  });

  it('maps every stat, and one it does not know to UNKNOWN', () => {
    const stats = ['DELIVRD', 'EXPIRED', 'DELETED', 'UNDELIV', 'ACCEPTD', 'UNKNOWN', 'REJECTD', 'ENROUTE'];
    for (const stat of stats) expect(parseDeliveryReceipt(`id:1 stat:${stat}`)?.stat).toBe(stat);
    expect(parseDeliveryReceipt('id:1 stat:WEIRD')?.stat).toBe('UNKNOWN');
  });

  it('returns null for what is not a receipt', () => {
    expect(parseDeliveryReceipt('Hello, how are you?')).toBeNull();
    expect(parseDeliveryReceipt('id:123 sub:001')).toBeNull();
    expect(parseDeliveryReceipt('stat:DELIVRD err:000')).toBeNull();
  });
});

describe('parseSmppDate', () => {
  it('reads YYMMDDhhmm and YYMMDDhhmmss as UTC', () => {
    expect(parseSmppDate('2512312359')).toEqual(new Date(Date.UTC(2025, 11, 31, 23, 59)));
    expect(parseSmppDate('251231235958')).toEqual(new Date(Date.UTC(2025, 11, 31, 23, 59, 58)));
  });

  it('returns null for a date that does not exist', () => {
    expect(parseSmppDate('2502300000')).toBeNull();
    expect(parseSmppDate('2501012460')).toBeNull();
    expect(parseSmppDate(undefined)).toBeNull();
  });
});
