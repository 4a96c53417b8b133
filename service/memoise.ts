/**
 * A function's answers kept per key, for lookups that depend on their key alone (a request path,
 * while the files and routes stay fixed). At most `limit` are kept, all dropped when full, so a
 * flood of new keys costs a lookup each and never memory.
 */
export function memoise<K, V>(compute: (key: K) => V, limit = 4096): (key: K) => V {
  const kept = new Map<K, V>();
  return (key) => {
    if (kept.has(key)) return kept.get(key) as V;
    const value = compute(key);
    if (kept.size >= limit) kept.clear();
    kept.set(key, value);
    return value;
  };
}
