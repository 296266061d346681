export * from './prediction-market.entity';
export * from './user-prediction.entity';
export * from './mispricing-alert.entity';
export * from './prediction-performance.entity';
