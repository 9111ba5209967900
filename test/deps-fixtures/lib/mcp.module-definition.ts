// expect: tier-options-not-up (a root file in a tier of its own)
import { auth } from './auth/auth-stub.js';

export const found = auth;
