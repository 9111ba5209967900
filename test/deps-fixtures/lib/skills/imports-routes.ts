// expect: tier-features-not-up
import { routes } from '../routes/routes-stub.js';

export const found = routes;
