/**
 * The catalogue function (service/functions/catalogue.ts) of one build of the site. Each file in
 * functions/ is one live function: the Node host makes it for each build it serves, with its
 * instance; the Vercel build bundles it with the deployment's build, served at /api/catalogue.
 * It needs nothing but the build: no settings, storage or counters.
 */
import { catalogueFunction } from '../service/functions/catalogue.ts';
import type { SiteBuild } from '../service/functions/site-build.ts';

export default (build: SiteBuild) => catalogueFunction({ build });
