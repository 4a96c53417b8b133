import { describe, expect, it } from 'vitest';
import { memoise } from '../../service/http/bounded-memo.ts';
import { apiPath } from '../../service/v1/path.ts';

describe('memoise', () => {
  it('computes each key once, null answers included', () => {
    const asked: string[] = [];
    const find = memoise((key: string) => (asked.push(key), key === 'none' ? null : key.length));
    expect([find('abc'), find('abc'), find('none'), find('none')]).toEqual([3, 3, null, null]);
    expect(asked).toEqual(['abc', 'none']);
  });

  it('keeps at most its limit, starting again when full', () => {
    let computed = 0;
    const find = memoise((key: number) => (computed++, key * 2), 3);
    for (const key of [1, 2, 3]) find(key);
    find(1);
    expect(computed).toBe(3);
    find(4); // full: everything kept so far is dropped, then 4 kept
    find(1);
    expect(computed).toBe(5);
  });

  it('answers the API path reading the same on the first and later reads', () => {
    for (const path of ['/v1/trips', '/v1/..%2f', '/%2576%2531/trips', '/treks']) expect(apiPath(path)).toEqual(apiPath(path));
    expect(apiPath('/v1/trips/')).toEqual({ kind: 'api', canonical: '/v1/trips', segments: ['trips'] });
  });
});
