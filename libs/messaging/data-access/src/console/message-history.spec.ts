import { messageHistory, type HistoryMessage, type HistoryPart } from './message-history';

const at = (seconds: number) => new Date(Date.UTC(2026, 10, 20, 12, 0, seconds));
const message = (overrides: Partial<HistoryMessage> = {}): HistoryMessage => ({
  status: 'queued',
  created_at: at(0),
  scheduled_at: null,
  sent_at: null,
  completed_at: null,
  cancelled_at: null,
  error_code: null,
  error_reason: null,
  campaign_id: null,
  campaign_created_at: null,
  ...overrides,
});
const part = (index: number, overrides: Partial<HistoryPart> = {}): HistoryPart => ({
  part_index: index,
  status: 'pending',
  carrier_message_id: null,
  receipt_stat: null,
  error_code: null,
  submitted_at: null,
  completed_at: null,
  ...overrides,
});

describe('message history', () => {
  it('has only the acceptance while nothing else happened', () => {
    expect(messageHistory(message(), [part(1)], [])).toEqual([{ at: at(0).toISOString(), event: 'accepted', part: null, details: {} }]);
  });

  it('orders what happened at one instant as it happens: parts by index, the message after its parts', () => {
    const history = messageHistory(
      message({ status: 'undelivered', sent_at: at(1), completed_at: at(5), error_code: '011', error_reason: 'said UNDELIV' }),
      [
        part(2, { status: 'undelivered', carrier_message_id: 'c2', receipt_stat: 'UNDELIV', error_code: '011', submitted_at: at(1), completed_at: at(5) }),
        part(1, { status: 'delivered', carrier_message_id: 'c1', receipt_stat: 'DELIVRD', submitted_at: at(1), completed_at: at(5) }),
      ],
      [],
    );
    expect(history.map((e) => [e.event, e.part, e.at])).toEqual([
      ['accepted', null, at(0).toISOString()],
      ['submitted', 1, at(1).toISOString()],
      ['submitted', 2, at(1).toISOString()],
      ['sent', null, at(1).toISOString()],
      ['delivered', 1, at(5).toISOString()],
      ['undelivered', 2, at(5).toISOString()],
      ['undelivered', null, at(5).toISOString()],
    ]);
    expect(history[5].details).toEqual({ receipt_stat: 'UNDELIV', error_code: '011' });
    expect(history[6].details).toEqual({ error_code: '011', error_reason: 'said UNDELIV' });
    expect(history[4].details).toEqual({ receipt_stat: 'DELIVRD' });
  });

  it('puts the message after a part whose state comes later in the list of states, at the same instant', () => {
    const history = messageHistory(
      message({ status: 'undelivered', completed_at: at(3) }),
      [part(1, { status: 'failed', error_code: 'X', completed_at: at(3) }), part(2, { status: 'undelivered', submitted_at: at(2), completed_at: at(3) })],
      [],
    );
    expect(history.map((e) => [e.event, e.part])).toEqual([
      ['accepted', null],
      ['submitted', 2],
      ['undelivered', 2],
      ['failed', 1],
      ['undelivered', null],
    ]);
  });

  it('tells a scheduled message cancelled and refunded, and a campaign message accepted with its campaign', () => {
    const scheduled = messageHistory(
      message({ status: 'cancelled', scheduled_at: at(600), cancelled_at: at(30) }),
      [part(1, { status: 'cancelled' })],
      [{ at: at(30), amount: 0.0137 }],
    );
    expect(scheduled.map((e) => [e.event, e.details])).toEqual([
      ['accepted', {}],
      ['scheduled', { scheduled_for: at(600).toISOString() }],
      ['cancelled', {}],
      ['refunded', { amount: 0.0137 }],
    ]);
    const campaign = messageHistory(message({ campaign_id: 'c-1', campaign_created_at: at(-60) }), [], []);
    expect(campaign).toEqual([
      { at: at(-60).toISOString(), event: 'accepted', part: null, details: { campaign_id: 'c-1' } },
      { at: at(0).toISOString(), event: 'queued', part: null, details: {} },
    ]);
  });
});
