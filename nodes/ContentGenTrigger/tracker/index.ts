/**
 * The trigger's change tracking, free of n8n and of I/O: it reads the service only through the
 * reader it is given. ../README.md walks one poll through it.
 */
export { runPoll } from './poll';
export { pickTestEvent } from './items';
export type { Lag, PollOutcome, TrackerConfig } from './poll';
export type { EmittedItem } from './items';
export type { ListResult, Reader, TrackedRecord, TrackerReply, TrackerRequest } from './reader';
export type { TriggerEvent } from '../events';
