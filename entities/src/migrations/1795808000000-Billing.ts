import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing (issue 19): teams keep the latest state of their subscription (price, seats, period end,
 * trial end, cancel at period end, past-due start for the grace period); subscriptions belong to a
 * team and carry their quantity; subscription_events become the ledger of received Stripe events,
 * unique on Stripe's event id, with their processing state; activity logs gain UPDATE_SUBSCRIPTION. Generated from the entities.
 */
export class Billing1795808000000 implements MigrationInterface {
  name = 'Billing1795808000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP CONSTRAINT "chk_activity_logs_action"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD CONSTRAINT "chk_activity_logs_action" CHECK ("action" IN ('SIGN_UP', 'SIGN_IN', 'SIGN_OUT', 'UPDATE_PASSWORD', 'DELETE_ACCOUNT', 'UPDATE_ACCOUNT', 'CREATE_TEAM', 'REMOVE_TEAM_MEMBER', 'INVITE_TEAM_MEMBER', 'ACCEPT_INVITATION', 'MARKET_OPEN', 'MARKET_CLOSE', 'MARKET_OPENING_SOON', 'MARKET_CLOSING_SOON', 'MARKET_ALERT_TECHNICAL', 'MARKET_ALERT_PRICE', 'MARKET_ALERT_VOLATILITY', 'MARKET_ALERT_NEWS', 'UPDATE_SUBSCRIPTION'))`);
    await queryRunner.query(`ALTER TABLE "teams" ADD "stripe_price_id" character varying(255)`);
    await queryRunner.query(`ALTER TABLE "teams" ADD "seat_quantity" integer`);
    await queryRunner.query(`ALTER TABLE "teams" ADD "current_period_end" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "teams" ADD "trial_end" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "teams" ADD "cancel_at_period_end" boolean NOT NULL DEFAULT false`);
    await queryRunner.query(`ALTER TABLE "teams" ADD "past_due_since" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "teams" ADD "billing_updated_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "team_id" integer`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD "quantity" integer NOT NULL DEFAULT '1'`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD "stripe_event_id" character varying(255) NOT NULL`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD CONSTRAINT "UQ_2c4c43a54a31077d8a87b82c8b5" UNIQUE ("stripe_event_id")`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD "team_id" integer`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD "processed_at" TIMESTAMP WITH TIME ZONE`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD "attempts" integer NOT NULL DEFAULT '0'`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD "last_error" text`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP CONSTRAINT "FK_485cf051a532ff3a47059d440da"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ALTER COLUMN "subscription_id" DROP NOT NULL`);
    await queryRunner.query(`CREATE INDEX "ix_subscriptions_team_id" ON "subscriptions" ("team_id") `);
    await queryRunner.query(`CREATE INDEX "ix_subscription_events_team_id" ON "subscription_events" ("team_id") `);
    await queryRunner.query(`CREATE INDEX "ix_subscription_events_unprocessed" ON "subscription_events" ("processed_at") WHERE processed_at IS NULL`);
    await queryRunner.query(`ALTER TABLE "subscriptions" ADD CONSTRAINT "FK_7acbcb5935bee3137813103a58b" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD CONSTRAINT "FK_485cf051a532ff3a47059d440da" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD CONSTRAINT "FK_8baa8da43986a60ea3c4dec2daa" FOREIGN KEY ("team_id") REFERENCES "teams"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP CONSTRAINT "chk_activity_logs_action"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD CONSTRAINT "chk_activity_logs_action" CHECK ("action" IN ('SIGN_UP', 'SIGN_IN', 'SIGN_OUT', 'UPDATE_PASSWORD', 'DELETE_ACCOUNT', 'UPDATE_ACCOUNT', 'CREATE_TEAM', 'REMOVE_TEAM_MEMBER', 'INVITE_TEAM_MEMBER', 'ACCEPT_INVITATION', 'MARKET_OPEN', 'MARKET_CLOSE', 'MARKET_OPENING_SOON', 'MARKET_CLOSING_SOON', 'MARKET_ALERT_TECHNICAL', 'MARKET_ALERT_PRICE', 'MARKET_ALERT_VOLATILITY', 'MARKET_ALERT_NEWS'))`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP CONSTRAINT "FK_8baa8da43986a60ea3c4dec2daa"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP CONSTRAINT "FK_485cf051a532ff3a47059d440da"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP CONSTRAINT "FK_7acbcb5935bee3137813103a58b"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscription_events_unprocessed"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscription_events_team_id"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subscriptions_team_id"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ALTER COLUMN "subscription_id" SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE "subscription_events" ADD CONSTRAINT "FK_485cf051a532ff3a47059d440da" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP COLUMN "last_error"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP COLUMN "attempts"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP COLUMN "processed_at"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP COLUMN "team_id"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP CONSTRAINT "UQ_2c4c43a54a31077d8a87b82c8b5"`);
    await queryRunner.query(`ALTER TABLE "subscription_events" DROP COLUMN "stripe_event_id"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "quantity"`);
    await queryRunner.query(`ALTER TABLE "subscriptions" DROP COLUMN "team_id"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "billing_updated_at"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "past_due_since"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "cancel_at_period_end"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "trial_end"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "current_period_end"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "seat_quantity"`);
    await queryRunner.query(`ALTER TABLE "teams" DROP COLUMN "stripe_price_id"`);
  }
}
