export { CountingProgress, DoubleProgress, LongProgress, NOOP_PROGRESS_SINK, PercentProgress } from './progress-emitters.js';
export type { ProgressSink } from './progress-emitters.js';
export { createProgressSource } from './progress-source.js';
export type { ProgressSource } from './progress-source.js';
