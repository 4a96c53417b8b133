/**
 * Lookup by slug: an index made once per list (a catalogue's trips, the departure rules' known
 * trips) and kept as long as the list lives, instead of a scan of the list per lookup. A new
 * list (a catalogue built again, or a test's changed copy) gets an index of its own.
 */
const indexes = new WeakMap<readonly unknown[], ReadonlyMap<string, unknown>>();

export function bySlug<T>(
  list: readonly T[],
  slugOf: (item: T) => string,
  slug: string | null | undefined,
): T | undefined {
  if (slug === null || slug === undefined) return undefined;
  let index = indexes.get(list) as ReadonlyMap<string, T> | undefined;
  if (!index) {
    const made = new Map<string, T>();
    // The first of a slug wins, as a scan would find it.
    for (const item of list) if (!made.has(slugOf(item))) made.set(slugOf(item), item);
    indexes.set(list, made);
    index = made;
  }
  return index.get(slug);
}
