/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  testTimeout: 30000,
  // Tests that spawn the built service and brokers are slow to tear down; surface leaks instead of hanging CI.
  forceExit: false,
};
