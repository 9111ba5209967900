// expect: tier-registry-not-up
import { methods } from '../methods/methods-stub.js';

export const found = methods;
