// expect: no-spec-in-production
import { spec } from './protocol-stub.spec.js';

export const found = spec;
