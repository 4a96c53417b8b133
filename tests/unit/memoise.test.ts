import { describe, expect, it } from 'vitest';
import { BoundedMemo, KeptWith, memoise } from '../../service/http/bounded-memo.ts';
import { apiPath } from '../../service/http/api-path.ts';

describe('KeptWith', () => {
  it('works a value out once per object, keyed by the object itself, and takes what a step already knows', () => {
    let parsed = 0;
    const urls = new KeptWith((request: Request) => (parsed++, new URL(request.url)));
    const one = new Request('https://example.test/a?b=1');
    const same = new Request('https://example.test/a?b=1');
    expect(urls.get(one)).toBe(urls.get(one));
    expect(urls.get(same)).not.toBe(urls.get(one)); // another request, though its address reads the same
    expect(parsed).toBe(2);
    const known = new URL('https://example.test/known');
    const third = new Request('https://example.test/other');
    urls.set(third, known);
    expect(urls.get(third)).toBe(known);
    expect(parsed).toBe(2);
  });
});

describe('memoise', () => {
  it('keeps a key of several parts as one memo per part, so parts that would join alike stay apart', () => {
    const asked: string[] = [];
    const of = memoise((a: string) => memoise((b: string) => (asked.push(`${a}|${b}`), `${a}|${b}`)));
    expect(of('x\ny')('z')).toBe('x\ny|z');
    expect(of('x')('y\nz')).toBe('x|y\nz');
    expect(of('x\ny')('z')).toBe('x\ny|z');
    expect(asked).toEqual(['x\ny|z', 'x|y\nz']);
  });

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
    for (const path of ['/v1/trips', '/v1/..%2f', '/%2576%2531/trips', '/treks'])
      expect(apiPath(path)).toEqual(apiPath(path));
    expect(apiPath('/v1/trips/')).toEqual({ kind: 'api', canonical: '/v1/trips', segments: ['trips'] });
  });
});

describe('BoundedMemo', () => {
  it('works each answer out once and keeps at most its capacity', async () => {
    const memo = new BoundedMemo<number>(2);
    let worked = 0;
    const work = (n: number) => async () => (worked++, n);
    expect(await memo.answer('a', work(1))).toBe(1);
    expect(await memo.answer('a', work(9))).toBe(1);
    await memo.answer('b', work(2));
    await memo.answer('c', work(3));
    expect(memo.has('a')).toBe(false);
    expect(worked).toBe(3);
  });

  it('keeps at most maxBytes of answers, oldest out first', async () => {
    const memo = new BoundedMemo<string>(100, { maxBytes: 10, sizeOf: (text) => text.length });
    await memo.answer('a', async () => 'aaaa');
    await memo.answer('b', async () => 'bbbb');
    expect(memo.bytes).toBe(8);
    await memo.answer('c', async () => 'cccc');
    expect([memo.has('a'), memo.has('b'), memo.has('c')]).toEqual([false, true, true]);
    expect(memo.bytes).toBe(8);
  });

  it('keeps no failure, and a later answer for the key is kept', async () => {
    const memo = new BoundedMemo<string>(10, { maxBytes: 100, sizeOf: (text) => text.length });
    await expect(memo.answer('a', async () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(memo.has('a')).toBe(false);
    expect(await memo.answer('a', async () => 'yes')).toBe('yes');
    expect(memo.bytes).toBe(3);
  });
});
