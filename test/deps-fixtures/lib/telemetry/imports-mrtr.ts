// expect: tier-settings-not-up
import { mrtr } from '../mrtr/mrtr-stub.js';

export const found = mrtr;
