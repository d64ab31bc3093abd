/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Worker threads run JavaScript files; under jest the SQLite workers are compiled first (see the helper).
  moduleNameMapper: { '^\\./worker-file$': '<rootDir>/test/helpers/worker-file.ts' },
  testTimeout: 30000,
};
