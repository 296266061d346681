export * from './alert-conditions';
export * from './alert-frequency';
export * from './alert-index';
export * from './technical-indicators';
