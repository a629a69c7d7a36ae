import { Injectable, Logger } from '@nestjs/common';
import { moneyToJson } from '@mp/billing-domain';
import { MessageRefundService } from '@mp/messaging';
import { LedgerMetrics, PlatformMetrics } from '@mp/metrics';
import { QueueName, type JobDataOf } from '@mp/queue-contracts';
import { JobHandler } from '@mp/queue-runtime';

@Injectable()
export class RefundProcessor {
  private readonly logger = new Logger('RefundProcessor');
  private readonly ledgerMetrics: LedgerMetrics;

  constructor(
    private readonly refunds: MessageRefundService,
    metrics: PlatformMetrics,
  ) {
    this.ledgerMetrics = new LedgerMetrics(metrics);
  }

  @JobHandler(QueueName.BillingSettle, 'billing.refund')
  async handle(data: JobDataOf<typeof QueueName.BillingSettle, 'billing.refund'>) {
    const outcome = await this.refunds.refund(data.messageId);
    // A refund written (any kind of message: its parts that never reached a carrier); a reason means none was.
    if (!('reason' in outcome)) this.ledgerMetrics.refunded('sms', outcome.refunded);
    if (outcome.refunded > 0n)
      this.logger.log({ msg: 'refunded parts that never reached a carrier', messageId: data.messageId, amount: moneyToJson(outcome.refunded) });
    return { messageId: data.messageId, refunded: moneyToJson(outcome.refunded), ...('reason' in outcome ? { reason: outcome.reason } : {}) };
  }
}
