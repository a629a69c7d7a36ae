import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A webhook delivery may be about a campaign (campaign.completed): one per campaign and event. */
export class CampaignWebhooks1764100001000 implements MigrationInterface {
  name = 'CampaignWebhooks1764100001000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN campaign_id uuid REFERENCES campaigns (id)`);
    await db.query(`CREATE UNIQUE INDEX webhook_deliveries_campaign_event_idx ON webhook_deliveries (campaign_id, event_type) WHERE campaign_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_campaign_event_idx`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN campaign_id`);
  }
}
