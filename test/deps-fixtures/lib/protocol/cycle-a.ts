// expect: no-cycles (with cycle-b.ts, which imports it back)
import { cycleB } from './cycle-b.js';

export const cycleA = (): unknown => cycleB;
