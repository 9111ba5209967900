// expect: every-file-in-a-tier
import { protocol } from '../protocol/protocol-stub.js';

export const found = protocol;
