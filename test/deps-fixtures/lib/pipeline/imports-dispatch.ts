// expect: request-path-methods-not-up (pipeline/ shares the methods tier)
import { dispatch } from '../dispatch/dispatch-stub.js';

export const found = dispatch;
