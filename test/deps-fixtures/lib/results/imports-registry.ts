// expect: tier-results-not-up
import { registry } from '../registry/registry-stub.js';

export const found = registry;
