/** The catalogue function (Vercel convention: each file in api/ is one function). See service/functions/catalogue.ts. */
import { catalogueFunction } from '../service/functions/catalogue.ts';
import { liveDeps } from '../service/functions/runtime.ts';

// The process's dependencies (service/functions/runtime.ts), handed to the function here.
export default catalogueFunction(liveDeps());
