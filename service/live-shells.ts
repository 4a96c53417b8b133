/**
 * The page frames the live functions write their pages into. Each is built by Astro at deploy
 * time (src/pages/live-shells/[name].astro) with the site's header, styles and footer, then moved
 * out of the published files into the build's `live/shells/` by the build's last step
 * (scripts/build-output.mjs), where the functions read it (service/functions/page-shell.ts).
 */
export const liveShells = {
  /** The departures board and its per-trip views: "Departures" is the current navigation item. */
  departures: { currentPath: '/departures' },
  /** Any other live page (answers to forms): no navigation item is current. */
  page: { currentPath: '/live' },
  /**
   * A bare document of the site's styles around one block, for a frame inside a built page: the
   * live departures a trip page frames when JavaScript is off. Links open in the whole window.
   */
  block: { currentPath: '/live', bare: true },
} as const;

export type LiveShellName = keyof typeof liveShells;
