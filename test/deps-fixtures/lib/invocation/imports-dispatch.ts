// expect: request-path-invocation-not-up
import { dispatch } from '../dispatch/dispatch-stub.js';

export const found = dispatch;
