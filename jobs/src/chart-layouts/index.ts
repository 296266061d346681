export * from './chart-layout-shape';
export * from './chart-layouts';
