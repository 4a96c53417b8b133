/** The departures function (Vercel convention: each file in api/ is one function). See service/functions/departures.ts. */
import { departuresFunction } from '../service/functions/departures.ts';
import { liveDeps } from '../service/functions/runtime.ts';

// The process's dependencies (service/functions/runtime.ts), handed to the function here.
export default departuresFunction(liveDeps());
