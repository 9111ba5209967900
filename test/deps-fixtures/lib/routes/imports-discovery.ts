// expect: tier-routes-not-up
import { discovery } from '../discovery/discovery-stub.js';

export const found = discovery;
