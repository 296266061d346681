const swc = require('./jest/swc.config.js');

const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', swc] };
// ESM-only packages (no dependencies of their own) are compiled to CommonJS like our code.
const transformIgnorePatterns = ['/node_modules/(?!(trading-signals)/)'];

const node = (name) => ({
  displayName: name,
  rootDir: `<rootDir>/${name}`,
  testEnvironment: 'node',
  transform,
  transformIgnorePatterns,
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  moduleFileExtensions: ['ts', 'tsx', 'js', 'json'],
});

/** @type {import('jest').Config} */
module.exports = {
  globalSetup: '<rootDir>/jest/global-setup.ts',
  globalTeardown: '<rootDir>/jest/global-teardown.ts',
  // Two cores: two workers keep the database and Redis busy without thrashing.
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
  testTimeout: 30000,
  projects: [
    node('entities'),
    node('jobs'),
    node('workers'),
    node('api'),
    { ...node('scripts'), testMatch: ['<rootDir>/test/**/*.test.ts'] },
    {
      displayName: 'web',
      rootDir: '<rootDir>/web',
      testEnvironment: 'jsdom',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/src/**/*.test.tsx'],
      moduleNameMapper: {
        '\\.(css|svg|png)$': '<rootDir>/test/asset-stub.js',
        // jsdom has no canvas: the chart library is a recorder here (real charts run in e2e/).
        '^lightweight-charts$': '<rootDir>/test/chart-library.ts',
      },
      setupFilesAfterEnv: ['<rootDir>/test/setup.ts'],
    },
    {
      // Real headless Chromium (Debian's) against the built client, the api and workers: slow steps.
      ...node('e2e'),
      testMatch: ['<rootDir>/**/*.e2e.test.ts'],
      // The root testTimeout wins over a project's: the long one is set per file by this setup.
      setupFilesAfterEnv: ['<rootDir>/support/jest-setup.ts'],
      globalTeardown: '<rootDir>/support/global-teardown.ts',
    },
  ],
};
