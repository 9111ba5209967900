// expect: tier-context-not-up
import { invocation } from '../invocation/invocation-stub.js';

export const found = invocation;
