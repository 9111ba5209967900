// expect: tier-invocation-not-up
import { registry } from '../registry/registry-stub.js';

export const found = registry;
