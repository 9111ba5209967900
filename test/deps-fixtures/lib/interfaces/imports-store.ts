// expect: tier-shapes-not-up
import type { Store } from '../store/store-stub.js';

export type Found = Store;
