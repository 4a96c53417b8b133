/** The bookings function (Vercel convention: each file in api/ is one function). See service/functions/bookings.ts. */
import { bookingsFunction } from '../service/functions/bookings.ts';
import { liveDeps } from '../service/functions/runtime.ts';

// The process's dependencies (service/functions/runtime.ts), handed to the function here.
export default bookingsFunction(liveDeps());
