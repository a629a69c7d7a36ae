import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The texts a company answers opt-out keywords with (issue 30, item 3): STOP (and the other
 * opt-out keywords), START, and HELP. NULL: the CTIA wording with the company's name
 * (libs/messaging/domain opt-out-keywords.ts); up to 320 characters, a few parts at most.
 */
export class KeywordReplies1764800005000 implements MigrationInterface {
  name = 'KeywordReplies1764800005000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE companies
        ADD COLUMN opt_out_reply text CHECK (char_length(opt_out_reply) BETWEEN 1 AND 320),
        ADD COLUMN opt_in_reply text CHECK (char_length(opt_in_reply) BETWEEN 1 AND 320),
        ADD COLUMN help_reply text CHECK (char_length(help_reply) BETWEEN 1 AND 320)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE companies DROP COLUMN opt_out_reply, DROP COLUMN opt_in_reply, DROP COLUMN help_reply`);
  }
}
