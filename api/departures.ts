/** The departures function (Vercel convention: each file in api/ is one function). See service/functions/departures.ts. */
import { departuresFunction } from '../service/functions/departures.ts';

export default departuresFunction();
