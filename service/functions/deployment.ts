/**
 * The instance of a function deployed on its own (Vercel runs each function in processes of its
 * own): the deployment's settings from the environment, and the counter store they name, shared
 * by every instance of the deployment through Upstash (service/rules/counter-stores.ts).
 */
import { readSettings } from '../config.ts';
import { openCounterStore } from '../rules/counter-stores.ts';
import { liveInstance, type LiveInstance } from './runtime.ts';

export function deploymentInstance(env: Record<string, string | undefined> = process.env): LiveInstance {
  const settings = () => readSettings(env);
  return liveInstance({ settings, counters: () => openCounterStore(settings().counters) });
}
