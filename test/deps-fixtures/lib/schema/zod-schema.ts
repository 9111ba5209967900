// expect: no-schema-libraries
import { z } from 'zod';

export const name = z.string();
