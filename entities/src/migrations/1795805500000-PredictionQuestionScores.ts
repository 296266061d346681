import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `prediction_question_scores`: a user's time-weighted score on each resolved question, written when
 * the market resolves, so that the scorecard is recomputed from one row per question (issue 16's
 * 50 ms recompute). Rows of markets resolved before this migration are filled by the next recompute
 * of their users (recomputePerformance scores the questions that have no row yet).
 * Written by the generator (npx tsx scripts/generate-migration.ts), renamed with a fixed timestamp.
 */
export class PredictionQuestionScores1795805500000 implements MigrationInterface {
  name = 'PredictionQuestionScores1795805500000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "prediction_question_scores" (
        "user_id" integer NOT NULL,
        "market_id" integer NOT NULL,
        "category" character varying(100),
        "outcome" smallint NOT NULL,
        "resolved_at" TIMESTAMP WITH TIME ZONE NOT NULL,
        "p" double precision NOT NULL,
        "m" double precision NOT NULL,
        "points" double precision NOT NULL,
        "forecasts" integer NOT NULL,
        "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_d84a5c1970bad0355e9e5a435d5" PRIMARY KEY ("user_id", "market_id")
      )`);
    await queryRunner.query(`ALTER TABLE "prediction_question_scores" ADD CONSTRAINT "FK_c9a52895c99e55ecc15d1392af8" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await queryRunner.query(`ALTER TABLE "prediction_question_scores" ADD CONSTRAINT "FK_3706608c97ac5076fbd3be80234" FOREIGN KEY ("market_id") REFERENCES "prediction_markets"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "prediction_question_scores" DROP CONSTRAINT "FK_3706608c97ac5076fbd3be80234"`);
    await queryRunner.query(`ALTER TABLE "prediction_question_scores" DROP CONSTRAINT "FK_c9a52895c99e55ecc15d1392af8"`);
    await queryRunner.query(`DROP TABLE "prediction_question_scores"`);
  }
}
