import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

/** A futures contract market the CFTC reports on. Reference data. */
@Entity({ name: 'cot_instruments' })
@Unique('uq_cot_instruments_cftc_code', ['cftcCode'])
export class CotInstrument {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  // CFTC contract market code, e.g. '099741' (euro FX).
  @Column({ type: 'varchar', length: 20 })
  cftcCode: string;

  @Column({ type: 'varchar', length: 200 })
  instrumentName: string;

  @Column({ type: 'varchar', length: 20, nullable: true })
  symbol: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  exchange: string | null;

  // Units of the underlying per contract (125000 for euro FX).
  @Column({ type: 'numeric', precision: 24, scale: 4, nullable: true })
  contractSize: string | null;

  @Column({ type: 'varchar', length: 50, nullable: true })
  category: string | null;

  @Column({ type: 'boolean', default: true })
  isActive: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
