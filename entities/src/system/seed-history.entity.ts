import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Demo-data seeds already applied to this database. */
@Entity({ name: 'seed_history' })
export class SeedHistory {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name: string;

  @CreateDateColumn({ type: 'timestamptz' })
  appliedAt: Date;
}
