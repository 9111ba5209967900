// expect: request-path-era-not-up
import { transport } from '../transport/transport-stub.js';

export const found = transport;
