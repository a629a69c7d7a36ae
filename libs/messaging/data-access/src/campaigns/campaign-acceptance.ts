import { InsufficientBalanceError, LedgerRepository } from '@mp/billing';
import { formatMoney, priceIndex, type Money, type PriceRule } from '@mp/billing-domain';
import { planCampaign, type CampaignInput, type CampaignPlan, type PhoneParse, type PlannedBatch } from '@mp/messaging-domain';
import { QueueName } from '@mp/queue-contracts';
import { OutboxRepository, type OutboxJob } from '@mp/queue-runtime';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { COMMIT_VERIFICATION, committedCharge, isOutcomeUnknown, type VerificationOptions } from '../commit-verification';

export interface CampaignCommand {
  companyId: string;
  sender: string;
  priority: 'normal' | 'high';
  reference: string | null;
  webhookUrl: string | null;
  batchSize: number;
  delayBetweenBatchesS: number;
  scheduledAt: Date | null;
  input: CampaignInput;
}

/** The balance does not cover the whole campaign: nothing was stored, queued or charged. */
export class CampaignNotAffordableError extends Error {
  constructor(
    readonly balance: Money,
    readonly required: Money,
    readonly recipients: number,
  ) {
    super('Insufficient balance');
    this.name = 'CampaignNotAffordableError';
  }
}

/** No entry of the request can be sent: nothing was stored or charged. */
export class CampaignEmptyError extends Error {
  constructor(readonly failedNumbers: CampaignPlan['failedNumbers']) {
    super('No valid recipients');
    this.name = 'CampaignEmptyError';
  }
}

export interface AcceptedCampaign {
  campaignId: string;
  plan: CampaignPlan;
  balance: Money;
  batches: { batchId: string; position: number; recipients: number; scheduledAt: Date }[];
}

/** A batch's dispatch job; `high` campaigns' batches go ahead of waiting `normal` ones. */
function batchJob(batchId: string, at: Date, priority: 'normal' | 'high'): OutboxJob {
  return {
    queue: QueueName.CampaignDispatch,
    jobName: 'campaign.batch',
    jobId: `batch-${batchId}`,
    data: { batchId },
    notBefore: at,
    priority: priority === 'high' ? 1 : 10,
  };
}

export interface CampaignAcceptanceOptions {
  /** Called after commit with the outbox rows of the batches' jobs, to enqueue them (the sweeper covers a failure). */
  onCommitted?: (outbox: { ids: string[]; jobs: OutboxJob[] }) => Promise<unknown>;
  /** How long to ask whether a campaign whose connection was lost mid-commit was charged. */
  verification?: VerificationOptions;
  /** The company's suppression list as a test (OptOutStore.suppressionOf): its numbers are listed as failed, not charged. */
  suppression?: (companyId: string) => Promise<(phone: string, sender: string) => boolean>;
}

/**
 * Accepts a campaign: every entry validated and priced in memory, then ONE transaction charges the
 * whole cost in one ledger entry (all or nothing), stores the campaign and its batches (a row per
 * batch, recipients as arrays) and one dispatch job per batch, due at the batch's time.
 */
export class CampaignAcceptanceService {
  private readonly onCommitted: NonNullable<CampaignAcceptanceOptions['onCommitted']>;
  private readonly verification: VerificationOptions;
  private readonly suppression: CampaignAcceptanceOptions['suppression'];

  constructor(
    private readonly db: DataSource,
    private readonly ledger: LedgerRepository,
    private readonly outbox: OutboxRepository,
    private readonly validate: (input: string) => PhoneParse,
    options: CampaignAcceptanceOptions = {},
  ) {
    this.onCommitted = options.onCommitted ?? (async () => undefined);
    this.verification = options.verification ?? COMMIT_VERIFICATION;
    this.suppression = options.suppression;
  }

  async accept(command: CampaignCommand, prices: readonly PriceRule[], now: Date = new Date()): Promise<AcceptedCampaign> {
    const lookup = priceIndex(prices, 'auto');
    const optedOut = await this.suppression?.(command.companyId);
    const plan = planCampaign(command.input, {
      batchSize: command.batchSize,
      delayBetweenBatchesS: command.delayBetweenBatchesS,
      startAt: command.scheduledAt ?? now,
      validate: this.validate,
      price: (e164) => lookup(e164)?.price,
      suppressed: optedOut && ((e164, sender) => optedOut(e164, sender ?? command.sender)),
    });
    if (plan.accepted === 0) throw new CampaignEmptyError(plan.failedNumbers);
    const campaignId = randomUUID();
    const batches = plan.batches.map((batch) => ({ ...batch, id: randomUUID() }));
    const jobs = batches.map((batch) => batchJob(batch.id, batch.scheduledAt, command.priority));
    const { balance, ids } = await this.db
      .transaction(async (manager) => {
        const after = await this.charge(manager, command, plan, campaignId);
        await insertCampaign(manager, campaignId, command, plan);
        await insertBatches(manager, campaignId, batches, command.scheduledAt !== null);
        return { balance: after, ids: await this.outbox.insertMany(manager, jobs) };
      })
      .catch((error: unknown) => this.committedDespite(error, command.companyId, campaignId));
    // A campaign found committed after its connection was lost has its jobs in the outbox, unmarked: the sweeper enqueues them.
    if (ids.length > 0) await this.onCommitted({ ids, jobs }).catch(() => undefined);
    return {
      campaignId,
      plan,
      balance,
      batches: batches.map((b) => ({ batchId: b.id, position: b.position, recipients: b.recipients.length, scheduledAt: b.scheduledAt })),
    };
  }

  /**
   * The transaction failed. If its connection was lost while it ran, it may have committed: the
   * campaign is accepted if its charge is in the ledger (as a single send is, see SmsAcceptance),
   * refused with the error if it is not or the database does not answer in time.
   */
  private async committedDespite(error: unknown, companyId: string, campaignId: string): Promise<{ balance: Money; ids: string[] }> {
    if (!isOutcomeUnknown(error)) throw error;
    const balance = await committedCharge(this.db, { companyId, reference: campaignReference(campaignId) }, this.verification);
    if (balance === null || balance === undefined) throw error;
    return { balance, ids: [] };
  }

  private async charge(manager: EntityManager, command: CampaignCommand, plan: CampaignPlan, campaignId: string): Promise<Money> {
    try {
      return await this.ledger.apply(
        { companyId: command.companyId, kind: 'charge', amount: -plan.totalCost, reference: campaignReference(campaignId), description: 'bulk campaign' },
        manager,
      );
    } catch (error) {
      if (error instanceof InsufficientBalanceError) throw new CampaignNotAffordableError(error.balance, plan.totalCost, plan.accepted);
      throw error;
    }
  }
}

const campaignReference = (campaignId: string) => `campaign:${campaignId}`;

async function insertCampaign(manager: EntityManager, id: string, command: CampaignCommand, plan: CampaignPlan): Promise<void> {
  await manager.query(
    `INSERT INTO campaigns (id, company_id, reference, sender, body, priority, webhook_url, batch_size, delay_between_batches, scheduled_at,
       total_recipients, accepted, failed_numbers, total_cost, status)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
    [
      id,
      command.companyId,
      command.reference,
      command.sender,
      command.input.mode === 1 ? command.input.message : null,
      command.priority,
      command.webhookUrl,
      command.batchSize,
      command.delayBetweenBatchesS,
      command.scheduledAt,
      plan.total,
      plan.accepted,
      JSON.stringify(plan.failedNumbers),
      formatMoney(plan.totalCost),
      command.scheduledAt ? 'scheduled' : 'queued',
    ],
  );
}

/** Every batch in one statement: the batches travel as one JSON array, their lists as JSON arrays. */
async function insertBatches(manager: EntityManager, campaignId: string, batches: (PlannedBatch & { id: string })[], scheduled: boolean): Promise<void> {
  const rows = batches.map((b) => ({
    id: b.id,
    position: b.position,
    recipients: b.recipients,
    bodies: b.bodies,
    message_references: b.references,
    senders: b.senders,
    parts: b.parts,
    prices: b.prices.map(formatMoney),
    cost: formatMoney(b.cost),
    scheduled_at: b.scheduledAt.toISOString(),
  }));
  await manager.query(
    `INSERT INTO campaign_batches (id, campaign_id, position, recipients, bodies, message_references, senders, parts, prices, cost, status, scheduled_at)
     SELECT b.id, $1, b.position, b.recipients, b.bodies, b.message_references, b.senders, b.parts, b.prices, b.cost, $3, b.scheduled_at
     FROM jsonb_to_recordset($2::jsonb) AS b(id uuid, position integer, recipients text[], bodies text[], message_references text[],
       senders text[], parts smallint[], prices numeric[], cost numeric, scheduled_at timestamptz)`,
    [campaignId, JSON.stringify(rows), scheduled ? 'scheduled' : 'queued'],
  );
}
