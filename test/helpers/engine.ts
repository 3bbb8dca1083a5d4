// The engine harness is shared with the benchmarks and the demo (harness/).
export * from '../../harness/engine';
