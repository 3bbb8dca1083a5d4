// The engine harness lives with the demo so both share one implementation.
export * from '../../scripts/lib/engine';
