/** The bookings function (Vercel convention: each file in api/ is one function). See service/functions/bookings.ts. */
import { bookingsFunction } from '../service/functions/bookings.ts';

export default bookingsFunction();
