import type { PDU } from 'smpp';
import { CommandStatus, NO_RESPONSE } from './command-status';
import { SubmitWindow, type SubmitSender } from './submit-window';
import { TrafficPolicy } from './traffic-policy';

/** The window passes parameters through untouched: any object stands for them here. */
type Parameters = Record<string, unknown>;

/** A sender that records what was sent and lets the test answer it. */
function fakeSender(): { sender: SubmitSender<Parameters>; sent: { parameters: Parameters; answer: (status: number, messageId?: string) => void }[] } {
  const sent: { parameters: Parameters; answer: (status: number, messageId?: string) => void }[] = [];
  const sender: SubmitSender<Parameters> = (parameters, onResponse) => {
    sent.push({ parameters, answer: (status, messageId) => onResponse({ command_status: status, message_id: messageId } as unknown as PDU) });
    return true;
  };
  return { sender, sent };
}

const options = { windowSize: 2, maxPerSecond: 0, responseTimeoutMs: 1_000, target: 'smsc:2775', traffic: new TrafficPolicy() };

describe('SubmitWindow', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('keeps at most windowSize submits outstanding, sending the next as each is answered', async () => {
    const window = new SubmitWindow<Parameters>(options);
    const { sender, sent } = fakeSender();
    window.resume(sender);
    const outcomes = [1, 2, 3].map((n) => window.submit({ n }));
    expect(sent.map((item) => item.parameters)).toEqual([{ n: 1 }, { n: 2 }]);
    sent[0].answer(0, 'id-1');
    expect(sent).toHaveLength(3);
    sent[1].answer(CommandStatus.ESME_RTHROTTLED);
    sent[2].answer(CommandStatus.ESME_RINVDSTADR);
    expect(await Promise.all(outcomes)).toEqual([
      { ok: true, carrierMessageId: 'id-1' },
      { ok: false, permanent: false, commandStatus: CommandStatus.ESME_RTHROTTLED, reason: 'the SMSC answered ESME_RTHROTTLED (0x58)' },
      { ok: false, permanent: true, commandStatus: CommandStatus.ESME_RINVDSTADR, reason: 'the SMSC answered ESME_RINVDSTADR (0x0b)' },
    ]);
  });

  it('lets campaign parts fill only a quarter of the window while other parts flow, and all of it again a second after', () => {
    const window = new SubmitWindow<Parameters>({ ...options, windowSize: 8, responseTimeoutMs: 10_000 });
    const { sender, sent } = fakeSender();
    window.resume(sender);
    const bulk = (n: number) => Array.from({ length: n }, (_, i) => void window.submit({ bulk: i }, 'bulk'));
    bulk(8);
    expect(sent).toHaveLength(8); // no other traffic: the whole window
    for (const item of sent.splice(0)) item.answer(0, 'id');

    void window.submit({ otp: 1 }, 'urgent');
    bulk(8);
    expect(sent.map((item) => item.parameters)).toEqual([{ otp: 1 }, { bulk: 0 }, { bulk: 1 }]);
    sent[1].answer(0, 'id'); // a campaign part answered: the next takes its place, no more
    expect(sent).toHaveLength(4);
    void window.submit({ otp: 2 }, 'urgent'); // the rest of the window stays free for OTPs
    expect(sent).toHaveLength(5);

    jest.advanceTimersByTime(1_001);
    sent[2].answer(0, 'id'); // a second without other traffic: the last five campaign parts fill the window again
    expect(sent).toHaveLength(10);
    expect(window.outstanding).toBe(8);
  });

  it("lets campaign parts fill the traffic policy's share of the window, for the policy's othersFlowMs", () => {
    const traffic = new TrafficPolicy({ othersFlowMs: 300, campaigns: { windowShare: 0.5 } });
    const window = new SubmitWindow<Parameters>({ ...options, windowSize: 8, responseTimeoutMs: 10_000, traffic });
    const { sender, sent } = fakeSender();
    window.resume(sender);
    void window.submit({ single: 1 }, 'normal');
    for (let i = 0; i < 8; i += 1) void window.submit({ bulk: i }, 'bulk');
    expect(sent).toHaveLength(1 + 4); // half the window, not a quarter
    jest.advanceTimersByTime(301);
    sent[1].answer(0, 'id'); // the others stopped 300 ms ago: the last four campaign parts fill the window
    expect(sent).toHaveLength(1 + 4 + 4);
    expect(window.outstanding).toBe(8);
  });

  it('sends waiting urgent parts before normal ones and normal before bulk, whenever they came', () => {
    const window = new SubmitWindow<Parameters>({ ...options, windowSize: 1 });
    const { sender, sent } = fakeSender();
    window.resume(sender);
    void window.submit({ n: 'bulk-1' }, 'bulk');
    void window.submit({ n: 'bulk-2' }, 'bulk');
    void window.submit({ n: 'bulk-3' }, 'bulk');
    void window.submit({ n: 'normal' });
    void window.submit({ n: 'otp' }, 'urgent');
    for (let i = 0; i < 4; i += 1) sent[i].answer(0, `id-${i}`);
    expect(sent.map((item) => item.parameters['n'])).toEqual(['bulk-1', 'otp', 'normal', 'bulk-2', 'bulk-3']);
  });

  it('sends no faster than maxPerSecond', () => {
    const window = new SubmitWindow<Parameters>({ ...options, windowSize: 100, maxPerSecond: 10 });
    const { sender, sent } = fakeSender();
    window.resume(sender);
    for (let n = 0; n < 5; n += 1) void window.submit({ n });
    expect(sent).toHaveLength(1);
    jest.advanceTimersByTime(100);
    expect(sent).toHaveLength(2);
    jest.advanceTimersByTime(300);
    expect(sent).toHaveLength(5);
  });

  it('fails a submit without a response in time, frees its slot, and ignores the late response', async () => {
    const window = new SubmitWindow<Parameters>({ ...options, windowSize: 1 });
    const { sender, sent } = fakeSender();
    window.resume(sender);
    const first = window.submit({ n: 1 });
    const second = window.submit({ n: 2 });
    jest.advanceTimersByTime(1_000);
    expect(await first).toMatchObject({ ok: false, permanent: false, commandStatus: NO_RESPONSE, reason: 'no submit_sm_resp within 1000 ms' });
    expect(sent).toHaveLength(2);
    sent[0].answer(0, 'late');
    sent[1].answer(0, 'id-2');
    expect(await second).toEqual({ ok: true, carrierMessageId: 'id-2' });
    expect(window.outstanding).toBe(0);
  });

  it('waits for a bind up to responseTimeoutMs, and fails what was sent when the bind is lost', async () => {
    const window = new SubmitWindow<Parameters>(options);
    const late = window.submit({ n: 'late' });
    const tooLate = window.submit({ n: 'too late' });
    jest.advanceTimersByTime(500);
    const { sender, sent } = fakeSender();
    window.resume(sender);
    expect(sent).toHaveLength(2);
    sent[0].answer(0, 'id');
    expect(await late).toEqual({ ok: true, carrierMessageId: 'id' });
    window.suspend('the connection was lost');
    expect(await tooLate).toMatchObject({ ok: false, permanent: false, commandStatus: NO_RESPONSE, reason: 'the connection was lost' });

    const unbound = window.submit({ n: 'never bound' });
    jest.advanceTimersByTime(1_000);
    expect(await unbound).toMatchObject({ ok: false, reason: 'not bound to smsc:2775 within 1000 ms' });
  });

  it('fails what has not been sent when dropped', async () => {
    const window = new SubmitWindow<Parameters>(options);
    const waiting = window.submit({});
    window.drop('closing');
    expect(await waiting).toMatchObject({ ok: false, permanent: false, reason: 'closing' });
  });
});
