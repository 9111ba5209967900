// expect: request-path-results-not-up
import { invocation } from '../invocation/invocation-stub.js';

export const found = invocation;
