/**
 * The change log of departures (service/departures/changes.ts) on the embedded database (PGlite
 * in memory): every write of a departure, by the operator's tool, a CSV import or publishing,
 * records what the public sees change, in the write's own transaction.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DepartureChangeLog } from '../../service/departures/changes.ts';
import { departuresToCsv, readDepartureCsv } from '../../service/departures/csv.ts';
import { departureInput } from '../../service/departures/input.ts';
import { DepartureStore } from '../../service/departures/store.ts';
import { knownTrips } from '../../service/departures/trips.ts';
import type { Sql } from '../../service/storage/sql.ts';
import { freshDatabase } from '../helpers/embedded-template.ts';
import { loadCatalogue } from '../helpers/content.ts';

const trips = knownTrips(loadCatalogue());

let sql: Sql;
let departures: DepartureStore;

beforeAll(async () => {
  sql = await freshDatabase();
  departures = new DepartureStore(async () => sql, { trips });
});
afterAll(() => sql?.close());

beforeEach(async () => {
  await departures.ready();
  await sql.query('DELETE FROM departure_changes');
  await sql.query('DELETE FROM departures');
});

const add = (fields: Record<string, unknown>) => departures.add(departureInput.parse(fields));

/** `update`'s input, as the CLI's schema gives it. */
const departureChanges = (fields: Record<string, unknown>) => fields as Parameters<DepartureStore['update']>[1];

async function changes() {
  return (await new DepartureChangeLog(sql).after(0)).map((c) => ({ id: c.departureId, kinds: c.kinds }));
}

describe('every write of a departure records what changed', () => {
  it('a new date, seats opened, a lower price, another status and a cancellation, each when it was made', async () => {
    const added = await add({ tripSlug: 'sample-trek', startDate: '2027-06-10', seatsTotal: 12, seatsLeft: 0 });
    expect(added.status).toBe('sold_out');
    await departures.update(added.id, departureChanges({ seatsLeft: 3 }));
    await departures.update(added.id, departureChanges({ priceInr: 12_000 }));
    await departures.update(added.id, departureChanges({ priceInr: 14_000 }));
    await departures.update(added.id, departureChanges({ status: 'open' }));
    await departures.update(added.id, departureChanges({ status: 'cancelled' }));
    expect(await changes()).toEqual([
      { id: added.id, kinds: ['new_date'] },
      // From sold out to filling: more seats, and the status the seats set.
      { id: added.id, kinds: ['seats_opened', 'status_changed'] },
      { id: added.id, kinds: ['price_lowered'] },
      // A higher price is a write, not a change anyone is told about.
      { id: added.id, kinds: ['status_changed'] },
      { id: added.id, kinds: ['cancelled'] },
    ]);
    const [first] = await new DepartureChangeLog(sql).after(0);
    expect(first!.recordedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(first!.before).toBeNull();
    expect(first!.after).toMatchObject({ id: added.id, seatsLeft: 0, status: 'sold_out' });
  });

  it('from a CSV import, and from publishing; hidden departures and hiding record nothing', async () => {
    const hidden = await add({ tripSlug: 'sample-trek', startDate: '2027-07-05', seatsTotal: 12, published: 'no' });
    await departures.update(hidden.id, departureChanges({ seatsLeft: 4 }));
    expect(await changes()).toEqual([]);
    await departures.setPublished([hidden.id], true);
    await departures.setPublished([hidden.id], false);
    expect(await changes()).toEqual([{ id: hidden.id, kinds: ['new_date'] }]);

    const shown = await add({ tripSlug: 'sample-trek', startDate: '2027-07-20', seatsTotal: 12, seatsLeft: 0 });
    await sql.query('DELETE FROM departure_changes');
    const csv = departuresToCsv([{ ...shown, seatsLeft: 5, status: 'filling' }]).replace(
      /\n$/,
      '\n,sample-trek,2027-08-01,,,,12,12,,yes\n',
    );
    const rows = readDepartureCsv(csv).map(({ line, record }) => ({ line, input: departureInput.parse(record) }));
    const result = await departures.importDepartures(rows);
    expect(result.added).toHaveLength(1);
    expect(await changes()).toEqual([
      { id: shown.id, kinds: ['seats_opened', 'status_changed'] },
      { id: result.added[0], kinds: ['new_date'] },
    ]);
  });
});
