// expect: tier-declarations-not-up
import { results } from '../results/results-stub.js';

export const found = results;
