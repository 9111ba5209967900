// expect: tier-discovery-not-up
import { methods } from '../methods/methods-stub.js';

export const found = methods;
