/**
 * The alerts function (service/functions/alerts.ts) of one build of the site, on an instance: the Node
 * host's (one per server), or on Vercel the deployment's, read from its environment
 * (service/functions/deployment.ts). See functions/catalogue.ts.
 */
import { alertsFunction } from '../service/functions/alerts.ts';
import { deploymentInstance } from '../service/functions/deployment.ts';
import type { LiveInstance } from '../service/functions/runtime.ts';
import type { SiteBuild } from '../service/functions/site-build.ts';

export default (build: SiteBuild, instance: LiveInstance = deploymentInstance()) =>
  alertsFunction({ ...instance, build });
