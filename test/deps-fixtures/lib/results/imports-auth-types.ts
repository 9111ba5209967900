// expect: tier-results-not-up (auth's option types sit apart from auth/, lower, but still above results)
import type { AuthOptions } from '../auth/mcp-auth.interfaces.js';

export type Found = AuthOptions;
