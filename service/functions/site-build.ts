/**
 * The build a request is answered from. The Node host serves one build of the site at a time and
 * takes up a newly published one whole (service/host/site-builds.ts); it runs each request inside
 * the build it started on, and the live functions read that build's catalogue (from the content
 * the build was made of), page frames and kept answers through here, so a request never mixes
 * two builds, even while the host moves to the next. Outside such a request (on Vercel, where a
 * deploy is one build, or a function called on its own) there is one build: the process's.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface SiteBuild {
  /** The published build's name (`X-Build`), or null for a build served as it lies in dist/. */
  id: string | null;
  /** Its `live/` folder: the page frames and the routes of its files. */
  liveDir: string;
  /** The content it was built from; CONTENT_DIR when it kept none. */
  contentDir?: string | undefined;
}

const answering = new AsyncLocalStorage<SiteBuild>();

/** Runs `answer` (a whole request) inside `build`. */
export function answerFrom<T>(build: SiteBuild, answer: () => T): T {
  return answering.run(build, answer);
}

/** The build the current request is answered from, if the host named one. */
export function servedBuild(): SiteBuild | undefined {
  return answering.getStore();
}

/**
 * A value made once per build (a catalogue, kept answers, page frames): the current request's
 * build's, or the process's outside one. A build's values go when nothing uses the build any more.
 */
export function keptPerBuild<T>(make: (build: SiteBuild | undefined) => T): () => T {
  const byBuild = new WeakMap<SiteBuild, T>();
  let outside: { value: T } | undefined;
  return () => {
    const build = answering.getStore();
    if (!build) return (outside ??= { value: make(undefined) }).value;
    if (byBuild.has(build)) return byBuild.get(build)!;
    const value = make(build);
    byBuild.set(build, value);
    return value;
  };
}
