import { QueueName } from '@mp/queue-contracts';
import { HandlerRegistrationError, HandlerRegistry } from './handler-registry';

const handler = async () => undefined;

describe('HandlerRegistry', () => {
  it('accepts exactly one handler per job of each consumed queue', () => {
    const registry = new HandlerRegistry();
    registry.register(QueueName.BillingSettle, 'queue.probe', handler, 'ProbeHandler');
    registry.register(QueueName.BillingSettle, 'billing.refund', handler, 'RefundHandler');
    expect(() => registry.assertComplete([QueueName.BillingSettle])).not.toThrow();
    expect(registry.lookup(QueueName.BillingSettle, 'queue.probe')).toBe(handler);
  });

  it('refuses a second handler for the same job, naming both', () => {
    const registry = new HandlerRegistry();
    registry.register(QueueName.BillingSettle, 'queue.probe', handler, 'First');
    expect(() => registry.register(QueueName.BillingSettle, 'queue.probe', handler, 'Second')).toThrow(/two handlers: First and Second/);
  });

  it('fails start-up when a consumed job has no handler', () => {
    const registry = new HandlerRegistry();
    expect(() => registry.assertComplete([QueueName.SmsDispatch])).toThrow(HandlerRegistrationError);
    expect(() => registry.assertComplete([QueueName.SmsDispatch])).toThrow(/sms.dispatch job "queue.probe" has no handler/);
  });

  it('refuses job names the contract does not define', () => {
    const registry = new HandlerRegistry();
    expect(() => registry.register(QueueName.SmsDispatch, 'sms.unknown', handler, 'X')).toThrow(/not a job of sms.dispatch/);
  });

  it('refuses handlers for a queue the app does not consume', () => {
    const registry = new HandlerRegistry();
    registry.register(QueueName.OtpDeliver, 'queue.probe', handler, 'X');
    expect(() => registry.assertComplete([])).toThrow(/does not consume/);
  });
});
