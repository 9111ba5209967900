// expect: tier-store-not-up
import { auth } from '../auth/auth-stub.js';

export const found = auth;
