// expect: tier-era-not-up
import { root } from '../mcp.module.js';

export const found = root;
