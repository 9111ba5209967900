// expect: tier-protocol-not-up (protocol/ imports nothing of ours)
import { constants } from '../mcp.constants.js';

export const found = constants;
