// expect: tier-results-not-up
import { auth } from '../auth/auth-stub.js';

export const found = auth;
