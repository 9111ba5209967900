// expect: testing-is-its-own-entry (the root may import every tier, yet not testing/)
import { testing } from './testing/testing-stub.js';

export const found = testing;
