import { describe, expect, it } from 'vitest';
import {
  canonicalLivePath,
  declaredParameters,
  declaredQuery,
  liveQueryParameters,
} from '../../service/functions/live-queries.ts';

const url = (target: string) => new URL(target, 'http://127.0.0.1:4321');

describe('declared query parameters of the live paths', () => {
  it('keys a live URL by its path and declared parameters only, in the order of the declaration', () => {
    expect(canonicalLivePath(url('/departures?z=1&utm_source=news'))).toBe('/departures');
    expect(canonicalLivePath(url('/departures?z=1&trip=hampta-pass-trek&x=2'))).toBe(
      '/departures?trip=hampta-pass-trek',
    );
    expect(canonicalLivePath(url('/departures?trip=a%20b'))).toBe(canonicalLivePath(url('/departures?trip=a+b')));
    expect(canonicalLivePath(url('/departures?trip=%68ampta'))).toBe('/departures?trip=hampta');
    expect(canonicalLivePath(url('/treks/hampta-pass-trek.md?anything=1'))).toBe('/treks/hampta-pass-trek.md');
    expect(canonicalLivePath(url('/enquiry-sent?ref=enq-1&trip=x'))).toBe('/enquiry-sent?ref=enq-1');
  });

  it("declares the search's filters on the board, departures.md and departures.ics, and a departure on a trip's enquiry form", () => {
    expect(canonicalLivePath(url('/departures?z=1&seats=2&month=2027-06&type=trek&trip=hampta-pass-trek'))).toBe(
      '/departures?month=2027-06&trip=hampta-pass-trek&type=trek&seats=2',
    );
    expect(
      canonicalLivePath(
        url(
          '/departures?maxPriceInr=25000&minSeats=2&to=2027-10-31&from=2027-09-20&maxDays=8&minDays=3&region=kullu&difficulty=Moderate&utm=x',
        ),
      ),
    ).toBe(
      '/departures?from=2027-09-20&to=2027-10-31&difficulty=Moderate&region=kullu&minDays=3&maxDays=8&minSeats=2&maxPriceInr=25000',
    );
    expect(canonicalLivePath(url('/departures.md?seats=4&utm=x'))).toBe('/departures.md?seats=4');
    expect(canonicalLivePath(url('/departures.ics?difficulty=Easy&utm=x'))).toBe('/departures.ics?difficulty=Easy');
    expect(canonicalLivePath(url('/treks/hampta-pass-trek/enquire?departure=dep-1&z=2'))).toBe(
      '/treks/hampta-pass-trek/enquire?departure=dep-1',
    );
    expect(canonicalLivePath(url('/expeditions/yunam-peak-expedition/enquire/?departure=dep-2'))).toBe(
      '/expeditions/yunam-peak-expedition/enquire/?departure=dep-2',
    );
    expect(declaredParameters('/treks/a/b/enquire')).toEqual([]);
    expect(declaredParameters('/walks/a/enquire')).toEqual([]);
  });

  it('treats an empty value as none and keeps repeated values in order', () => {
    expect(canonicalLivePath(url('/departures?trip='))).toBe('/departures');
    expect(declaredQuery(url('/departures?trip=a&z=1&trip=b')).getAll('trip')).toEqual(['a', 'b']);
  });

  it('reads a trailing slash as the same path, and paths not declared as taking no parameters', () => {
    expect(declaredParameters('/departures/')).toEqual(declaredParameters('/departures'));
    expect(declaredParameters('/departures.ics/')).toEqual(declaredParameters('/departures.ics'));
    expect(declaredParameters('/departures/block.ics')).toEqual([]);
    expect(declaredQuery(url('/treks/hampta-pass-trek.ics?trip=x')).toString()).toBe('');
  });

  it('never finds a member the object inherits', () => {
    for (const path of ['constructor', '__proto__', 'toString', '/constructor', '/__proto__'])
      expect(declaredParameters(path), path).toEqual([]);
    expect(Object.keys(liveQueryParameters).every((path) => path.startsWith('/'))).toBe(true);
  });
});
