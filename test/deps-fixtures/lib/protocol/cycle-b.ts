// The other half of cycle-a.ts's cycle: depcruise names a cycle once, from its first file.
import { cycleA } from './cycle-a.js';

export const cycleB = (): unknown => cycleA;
