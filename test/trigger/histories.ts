/**
 * Random histories of an account checked against the ground-truth model (./model): the runner
 * (./script), lateness within a request budget (./late) and the scripts (./arbitraries).
 */
export { runScript, type Mutant, type Script, type Step } from './script';
export { runLate } from './late';
export { largeScriptArb, smallScriptArb, type LargeOptions } from './arbitraries';
