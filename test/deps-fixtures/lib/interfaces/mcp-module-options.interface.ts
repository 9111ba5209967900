// expect: allowed (this file sits apart from interfaces/, in the options tier above store/)
import type { Store } from '../store/store-stub.js';

export type Found = Store;
