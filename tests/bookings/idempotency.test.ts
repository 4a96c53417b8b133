/** Each enquiry taken once, on embedded PostgreSQL (PGlite): the suite of idempotency-suite.ts. */
import { freshDatabase } from '../helpers/embedded-template.ts';
import { enquiriesTakenOnce } from './idempotency-suite.ts';

enquiriesTakenOnce('embedded PostgreSQL', freshDatabase);
