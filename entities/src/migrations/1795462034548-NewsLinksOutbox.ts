import type { MigrationInterface, QueryRunner } from 'typeorm';

export class NewsLinksOutbox1795462034548 implements MigrationInterface {
  name = 'NewsLinksOutbox1795462034548';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "news_item_markets" ADD "announced_at" TIMESTAMP WITH TIME ZONE`);
    // Links stored before the outbox were told to the consumers by their poll.
    await queryRunner.query(`UPDATE "news_item_markets" SET "announced_at" = now()`);
    await queryRunner.query(`CREATE INDEX "ix_news_item_markets_unannounced" ON "news_item_markets" ("news_item_id") WHERE "announced_at" IS NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."ix_news_item_markets_unannounced"`);
    await queryRunner.query(`ALTER TABLE "news_item_markets" DROP COLUMN "announced_at"`);
  }
}
