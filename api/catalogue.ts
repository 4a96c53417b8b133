/** The catalogue function (Vercel convention: each file in api/ is one function). See service/functions/catalogue.ts. */
import { catalogueFunction } from '../service/functions/catalogue.ts';

export default catalogueFunction();
