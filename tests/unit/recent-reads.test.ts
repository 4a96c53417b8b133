/** Departures read at most once a second per filter, shared by concurrent requests. */
import { describe, expect, it } from 'vitest';
import { RecentReads } from '../../service/departures/recent-reads.ts';
import type { DepartureSource, StoredDeparture } from '../../service/departures/source.ts';

function countingSource(fail = false): DepartureSource & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    async listPublished(filter) {
      reads.push(filter?.tripSlug ?? '*');
      await new Promise((r) => setTimeout(r, 5));
      if (fail) throw new Error('storage down');
      return [
        {
          id: `d-${reads.length}`,
          tripSlug: filter?.tripSlug ?? 'x',
          startDate: '2031-01-01',
          endDate: '2031-01-02',
          status: 'open',
          priceInr: null,
          seatsTotal: 10,
          seatsLeft: 5,
          note: null,
        } satisfies StoredDeparture,
      ];
    },
  };
}

describe('recent reads of departures', () => {
  it('shares one read among concurrent requests and keeps it for the freshness window', async () => {
    let now = 0;
    const source = countingSource();
    const reads = new RecentReads(source, { ttlMs: 1000, clock: () => now });
    const answers = await Promise.all(Array.from({ length: 50 }, () => reads.read({ tripSlug: 'a' })));
    expect(source.reads).toEqual(['a']);
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    now = 999;
    expect((await reads.read({ tripSlug: 'a' })).id).toBe(answers[0]!.id);
    now = 1000;
    expect((await reads.read({ tripSlug: 'a' })).id).not.toBe(answers[0]!.id);
    expect(source.reads).toEqual(['a', 'a']);
  });

  it('reads each filter apart, and keeps at most a few hundred filters', async () => {
    const source = countingSource();
    const reads = new RecentReads(source, { ttlMs: 60_000 });
    await reads.listPublished({ tripSlug: 'a' });
    await reads.listPublished({});
    expect(source.reads).toEqual(['a', '*']);
    for (let i = 0; i < 300; i += 1) await reads.listPublished({ tripSlug: `t${i}` });
    await reads.listPublished({ tripSlug: 'a' });
    // 'a' was the oldest of more than 256 filters, so it was read again.
    expect(source.reads.filter((r) => r === 'a')).toHaveLength(2);
  });

  it('asks storage that is down once per window, not once per request', async () => {
    let now = 0;
    const source = countingSource(true);
    const reads = new RecentReads(source, { ttlMs: 1000, clock: () => now });
    for (let i = 0; i < 5; i += 1) await expect(reads.listPublished()).rejects.toThrow('storage down');
    expect(source.reads).toHaveLength(1);
    now = 1500;
    await expect(reads.listPublished()).rejects.toThrow('storage down');
    expect(source.reads).toHaveLength(2);
  });

  it('lets one read at a time wait on storage that fails: the others fail at once, and storage is asked again a second after', async () => {
    let now = 0;
    let hung = true;
    const asked: string[] = [];
    const source: DepartureSource = {
      listPublished: (filter) => {
        asked.push(filter?.tripSlug ?? '*');
        return hung ? new Promise(() => {}) : Promise.resolve([]);
      },
    };
    const reads = new RecentReads(source, { ttlMs: 1000, timeoutMs: 50, clock: () => now });
    // Before anything failed, reads of different filters each ask storage.
    await Promise.all([
      expect(reads.listPublished({ tripSlug: 'a' })).rejects.toThrow('within 50 ms'),
      expect(reads.listPublished({ tripSlug: 'b' })).rejects.toThrow('within 50 ms'),
    ]);
    expect(asked).toEqual(['a', 'b']);
    // For a second after a failure nothing waits on storage, whatever the filter: storage is not
    // asked, and the read fails on the last failure ("a moment ago"), not on the bound ("within 50 ms").
    await expect(reads.listPublished({ tripSlug: 'c' })).rejects.toThrow(/a moment ago/);
    expect(asked).toEqual(['a', 'b']);
    // Then one read asks again; while it waits, the others fail at once, and its own filter joins it.
    now = 1000;
    const again = reads.listPublished({ tripSlug: 'd' });
    const joined = reads.listPublished({ tripSlug: 'd' });
    await expect(reads.listPublished({ tripSlug: 'e' })).rejects.toThrow('a moment ago');
    expect(asked).toEqual(['a', 'b', 'd']);
    await expect(again).rejects.toThrow('within 50 ms');
    await expect(joined).rejects.toThrow('within 50 ms');
    // Storage answers again: the next read a second later succeeds, and reads go on as before.
    hung = false;
    now = 2000;
    await expect(reads.listPublished({ tripSlug: 'f' })).resolves.toEqual([]);
    await Promise.all([
      expect(reads.listPublished({ tripSlug: 'g' })).resolves.toEqual([]),
      expect(reads.listPublished({ tripSlug: 'h' })).resolves.toEqual([]),
    ]);
    expect(asked).toEqual(['a', 'b', 'd', 'f', 'g', 'h']);
  });
});
