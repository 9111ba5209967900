// expect: config-imports-no-feature (auth/ shares config's tier, so only this rule speaks)
import { auth } from '../auth/auth-stub.js';

export const found = auth;
