export * from './prediction-market.entity';
export * from './prediction-market-snapshot.entity';
export * from './user-prediction.entity';
export * from './prediction-performance.entity';
export * from './mispricing-alert.entity';
export * from './prediction-follow.entity';
export * from './prediction-question-score.entity';
