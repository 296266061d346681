import type { MigrationInterface, QueryRunner } from 'typeorm';

export class News1795454364789 implements MigrationInterface {
  name = 'News1795454364789';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "news_items" (
        "id" SERIAL NOT NULL,
        "source" character varying(200) NOT NULL,
        "dedupe_key" character varying(500) NOT NULL,
        "title" character varying(1000) NOT NULL,
        "link" character varying(2000) NOT NULL,
        "summary" text,
        "published_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "form_type" character varying(30),
        "cik" character varying(10),
        "company" character varying(200),
        CONSTRAINT "uq_news_items_source_dedupe_key" UNIQUE ("source", "dedupe_key"),
        CONSTRAINT "PK_4b3130d2448c08413a7687d946c" PRIMARY KEY ("id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_news_items_source_published_at" ON "news_items" ("source", "published_at") `);
    await queryRunner.query(`CREATE TABLE "news_item_markets" (
        "news_item_id" integer NOT NULL,
        "market_id" integer NOT NULL,
        "matched_by" character varying(10) NOT NULL,
        CONSTRAINT "PK_b4f0e8af95c2cbfb6bac4cc3087" PRIMARY KEY ("news_item_id", "market_id")
      )`);
    await queryRunner.query(`CREATE INDEX "ix_news_item_markets_market_id" ON "news_item_markets" ("market_id") `);
    await queryRunner.query(`ALTER TABLE "markets" ADD "cik" character varying(10)`);
    await queryRunner.query(`ALTER TABLE "news_item_markets" ADD CONSTRAINT "FK_46d0acf45fd6e872f739d526549" FOREIGN KEY ("news_item_id") REFERENCES "news_items"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "news_item_markets" ADD CONSTRAINT "FK_d55b3adc4e48955c1ed22e2e2bd" FOREIGN KEY ("market_id") REFERENCES "markets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "news_item_markets" DROP CONSTRAINT "FK_d55b3adc4e48955c1ed22e2e2bd"`);
    await queryRunner.query(`ALTER TABLE "news_item_markets" DROP CONSTRAINT "FK_46d0acf45fd6e872f739d526549"`);
    await queryRunner.query(`ALTER TABLE "markets" DROP COLUMN "cik"`);
    await queryRunner.query(`DROP INDEX "public"."ix_news_item_markets_market_id"`);
    await queryRunner.query(`DROP TABLE "news_item_markets"`);
    await queryRunner.query(`DROP INDEX "public"."ix_news_items_source_published_at"`);
    await queryRunner.query(`DROP TABLE "news_items"`);
  }
}
