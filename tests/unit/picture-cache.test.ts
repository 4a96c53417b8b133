/**
 * The picture cache keeps a drawn picture under exactly what it draws and the version of the
 * drawing code: the same drawing is read back without drawing, a changed drawing or a new
 * version draws again, and pruning keeps only what the current build used. The social cards
 * go through it with their real drawing code.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { drawingVersion, pictureCache, pictureKey, prunePictureCache } from '../../src/lib/picture-cache.ts';
import { drawingCode, rasterise, tripCardDrawing, tripSocialCardSvg } from '../../src/components/social-card.ts';
import { fixtureContent, loadCatalogue } from '../helpers/content.ts';

const folder = mkdtempSync(path.join(tmpdir(), 'picture-cache-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('picture cache', () => {
  it('keys a drawing by its content and the code version', () => {
    expect(pictureKey({ a: 1, b: [1, 2] }, 'v1')).toBe(pictureKey({ a: 1, b: [1, 2] }, 'v1'));
    expect(pictureKey({ a: 1, b: [1, 2] }, 'v1')).not.toBe(pictureKey({ a: 1, b: [2, 1] }, 'v1'));
    expect(pictureKey({ a: 1 }, 'v1')).not.toBe(pictureKey({ a: 1 }, 'v2'));
    expect(drawingVersion(['source', Buffer.from('font')])).not.toBe(drawingVersion(['source', Buffer.from('font2')]));
  });

  it('draws once, then reads the same bytes back; a changed drawing or version draws again', async () => {
    const cache = pictureCache(path.join(folder, 'draw'));
    let drawn = 0;
    const draw = (bytes: string) => async () => {
      drawn += 1;
      return Buffer.from(bytes);
    };
    expect(await cache.picture({ name: 'x' }, 'v1', 'png', draw('first'))).toEqual(Buffer.from('first'));
    expect(await cache.picture({ name: 'x' }, 'v1', 'png', draw('never'))).toEqual(Buffer.from('first'));
    expect(drawn).toBe(1);
    expect(cache.has({ name: 'x' }, 'v1', 'png')).toBe(true);
    expect(await cache.picture({ name: 'y' }, 'v1', 'png', draw('second'))).toEqual(Buffer.from('second'));
    expect(await cache.picture({ name: 'x' }, 'v2', 'png', draw('third'))).toEqual(Buffer.from('third'));
    expect(drawn).toBe(3);
  });

  it('prunes the pictures no build has used since a given time', async () => {
    const dir = path.join(folder, 'prune');
    const cache = pictureCache(dir);
    await cache.picture({ trip: 'kept' }, 'v', 'png', async () => Buffer.from('a'));
    await cache.picture({ trip: 'dropped' }, 'v', 'png', async () => Buffer.from('b'));
    // Both written long ago; a build then uses only one of them.
    const earlier = new Date(Date.now() - 60_000);
    for (const name of readdirSync(dir)) utimesSync(path.join(dir, name), earlier, earlier);
    const started = Date.now() - 1000;
    await cache.picture({ trip: 'kept' }, 'v', 'png', async () => Buffer.from('never'));
    expect(prunePictureCache(started, dir)).toBe(1);
    expect(readdirSync(dir)).toEqual([`${pictureKey({ trip: 'kept' }, 'v')}.png`]);
  });

  it('passes over an entry gone before it is looked at (another build renaming its written-aside file)', () => {
    const dir = path.join(folder, 'vanishing');
    mkdirSync(dir, { recursive: true });
    // A link to nothing: listed, but no file behind it when looked at, as a renamed partial is.
    symlinkSync(path.join(dir, 'renamed.partial'), path.join(dir, 'gone'));
    expect(prunePictureCache(Date.now(), dir)).toBe(0);
  });

  it("keys a trip's social card by what the card shows, and the cached card is the freshly drawn one", async () => {
    const catalogue = loadCatalogue(fixtureContent);
    const page = catalogue.trips[0]!;
    const drawing = tripCardDrawing(catalogue, page);
    const renamed = tripCardDrawing(catalogue, { ...page, trip: { ...page.trip, name: `${page.trip.name} II` } });
    expect(pictureKey(drawing, drawingCode())).not.toBe(pictureKey(renamed, drawingCode()));
    const cache = pictureCache(path.join(folder, 'cards'));
    const fresh = await rasterise(await tripSocialCardSvg(catalogue, page));
    const stored = await cache.picture(drawing, drawingCode(), 'png', async () => fresh);
    expect((await cache.picture(drawing, drawingCode(), 'png', async () => Buffer.alloc(0))).equals(stored)).toBe(true);
    // Drawing is deterministic: a second drawing is the same bytes as the one kept.
    expect((await rasterise(await tripSocialCardSvg(catalogue, page))).equals(fresh)).toBe(true);
  });
});
