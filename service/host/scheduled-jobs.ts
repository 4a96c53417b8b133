/**
 * The Node host's scheduler: what a Vercel Cron Job does for a deployment (vercel.json `crons`),
 * a timer does here. Every ALERT_JOB_INTERVAL_MS it runs the alerts function's scheduled work
 * (the alert job) with the build being served, one run at a time; a run that fails is logged and
 * the next one tries again. Several Node hosts on one database may run it at the same moment:
 * the job itself makes that safe (service/alerts/store.ts). The timer never keeps the process
 * alive, and stops with the server.
 */
import type { Server } from 'node:http';
import type { FunctionHost } from './functions.ts';

/** The functions that have scheduled work. */
const scheduledFunctions = ['alerts'];

export function runScheduledJobs(server: Server, every: number, functions: () => FunctionHost): void {
  if (every <= 0) return;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    void (async () => {
      for (const name of scheduledFunctions) {
        await functions()
          .scheduled(name)
          .catch((error: unknown) => {
            console.error(`[${name}] scheduled run failed: ${error instanceof Error ? error.message : String(error)}`);
          });
      }
    })().finally(() => (running = false));
  }, every);
  timer.unref();
  server.once('close', () => clearInterval(timer));
}
