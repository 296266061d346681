// One swc transform for every server package: TypeScript with legacy decorators (TypeORM).
// Decorator metadata is off on purpose: tsx (our runtime) cannot emit it either, so every
// entity column names its type explicitly and tests run the same code the processes run.
module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true, tsx: true },
    transform: { legacyDecorator: true, decoratorMetadata: false, react: { runtime: 'automatic' } },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};
