/**
 * The trip pages' pictures in a real Chromium: the altitude chart's labels stay inside the chart
 * on a 320 px phone and on a desktop, the generated illustration is described for screen
 * readers, and every page names a social card that the site serves as a 1200x630 PNG.
 */
import { describe, expect, it } from 'vitest';
import { fixtureSiteInChromium, isTripPath, stillPages } from './site.ts';

const site = fixtureSiteInChromium();

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * In the page: where the visible altitude chart's line (sampled every 2 px along it) or a mark
 * of a night or high point enters the box of a gridline's altitude label.
 */
function profileCrossings(): string[] {
  const svg = [...document.querySelectorAll<SVGSVGElement>('figure.altitude > svg')].find(
    (s) => getComputedStyle(s).display !== 'none',
  );
  if (!svg) return ['no chart shown'];
  const labels = [...svg.querySelectorAll<SVGTextElement>('text.tick')].map((t) => ({
    text: t.textContent ?? '',
    box: t.getBoundingClientRect(),
  }));
  const line = svg.querySelector<SVGPathElement>('path.line');
  const matrix = line?.getScreenCTM();
  const points: { x: number; y: number }[] = [];
  if (line && matrix) {
    for (let at = 0; at <= line.getTotalLength(); at += 2)
      points.push(new DOMPoint(line.getPointAtLength(at).x, line.getPointAtLength(at).y).matrixTransform(matrix));
  }
  const marks = [...svg.querySelectorAll('.night, .high')]
    .filter((m) => !m.closest('.key'))
    .map((m) => m.getBoundingClientRect());
  const found: string[] = [];
  for (const { text, box } of labels) {
    if (points.some((pt) => pt.x >= box.left && pt.x <= box.right && pt.y >= box.top && pt.y <= box.bottom))
      found.push(`the line crosses "${text}"`);
    if (marks.some((m) => m.left < box.right && m.right > box.left && m.top < box.bottom && m.bottom > box.top))
      found.push(`a mark covers "${text}"`);
  }
  return found;
}

describe('trip page pictures in a browser', () => {
  for (const width of [320, 1280]) {
    it(`every text of the altitude chart lies inside the chart at ${width} px, and one drawing of it shows`, async () => {
      const context = await site.browser.newContext({ ...stillPages, viewport: { width, height: 800 } });
      const page = await context.newPage();
      const trips = site.paths.filter(isTripPath);
      expect(trips.length).toBeGreaterThanOrEqual(2);
      for (const p of trips) {
        await page.goto(`${site.server.url}${p}`);
        const charts = await page.locator('figure.altitude > svg').evaluateAll((svgs) =>
          svgs
            .filter((svg) => getComputedStyle(svg).display !== 'none')
            .map((svg) => {
              const box = svg.getBoundingClientRect();
              const texts = [...svg.querySelectorAll('text')].map((t) => {
                const r = t.getBoundingClientRect();
                return {
                  text: t.textContent,
                  left: r.left,
                  right: r.right,
                  top: r.top,
                  bottom: r.bottom,
                  fontPx:
                    Number.parseFloat(getComputedStyle(t).fontSize) *
                    (box.width / (svg as SVGSVGElement).viewBox.baseVal.width),
                };
              });
              return {
                box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom, width: box.width },
                texts,
              };
            }),
        );
        expect(charts, p).toHaveLength(1);
        const [chart] = charts;
        if (!chart) continue;
        expect(chart.box.right, `${p}: the chart fits the screen`).toBeLessThanOrEqual(width);
        expect(chart.texts.length, p).toBeGreaterThan(3);
        for (const t of chart.texts) {
          const where = `${p} at ${width}px: "${t.text}"`;
          expect(t.left, where).toBeGreaterThanOrEqual(chart.box.left - 0.5);
          expect(t.right, where).toBeLessThanOrEqual(chart.box.right + 0.5);
          expect(t.top, where).toBeGreaterThanOrEqual(chart.box.top - 0.5);
          expect(t.bottom, where).toBeLessThanOrEqual(chart.box.bottom + 0.5);
          // Readable: no label drawn smaller than 10.5 CSS pixels.
          expect(t.fontPx, where).toBeGreaterThanOrEqual(10.5);
        }
      }
      await context.close();
    }, 60_000);
  }

  it("at 320 px the profile's line and marks never cross a gridline's altitude", async () => {
    const context = await site.browser.newContext({ ...stillPages, viewport: { width: 320, height: 800 } });
    const page = await context.newPage();
    const crossings: string[] = [];
    for (const p of site.paths.filter(isTripPath)) {
      await page.goto(`${site.server.url}${p}`);
      crossings.push(...(await page.evaluate(profileCrossings)).map((c) => `${p}: ${c}`));
    }
    await context.close();
    expect(crossings).toEqual([]);
  }, 60_000);

  it('names the high point on the chart and describes the chart in words', async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.server.url}/expeditions/sample-expedition`);
    const svg = page.locator('figure.altitude > svg:visible');
    expect(await svg.locator('text').allTextContents()).toContain('Fixture summit 6,150 m');
    expect(await svg.locator('desc').textContent()).toContain('Day 2 reaches Fixture summit at 6,150 m.');
    expect(await page.locator('figure.altitude figcaption').textContent()).toContain(
      'Day 2 reaches Fixture summit at 6,150 m.',
    );
    await page.close();
  });

  it("shows the trip's illustration near the top with an alt text, and a small one on each trip card", async () => {
    const page = await site.browser.newPage();
    await page.goto(`${site.server.url}/treks/sample-trek`);
    const banner = page.getByRole('img', { name: /^Illustration of the Fixture Trek/ });
    expect(await banner.count()).toBe(1);
    expect(await banner.getAttribute('aria-label')).toContain('starts at 3,500 m in Start');
    const [bannerTop, h1Top] = await Promise.all([banner.boundingBox(), page.locator('h1').boundingBox()]);
    expect(bannerTop?.y ?? Infinity).toBeLessThan(h1Top?.y ?? 0);
    await page.goto(`${site.server.url}/treks`);
    const cards = await page.locator('.cards > li').count();
    expect(await page.locator('.cards > li svg.card-art[aria-hidden="true"]').count()).toBe(cards);
    await page.close();
  });

  it("gives every page a social card: its trip's on trip pages, the site's elsewhere, each a 1200x630 PNG", async () => {
    const page = await site.browser.newPage();
    const images = new Set<string>();
    for (const p of site.paths) {
      await page.goto(`${site.server.url}${p}`);
      const image = await page.locator('meta[property="og:image"]').getAttribute('content');
      const alt = await page.locator('meta[property="og:image:alt"]').getAttribute('content');
      const slug = p.split('/').at(-1);
      expect(new URL(image ?? '').pathname, p).toBe(
        isTripPath(p) ? `/images/social/${slug}.png` : '/images/social/site.png',
      );
      expect(alt?.length, p).toBeGreaterThan(20);
      expect(await page.locator('meta[name="twitter:card"]').getAttribute('content'), p).toBe('summary_large_image');
      images.add(new URL(image ?? '').pathname);
    }
    await page.close();
    expect(images.size).toBeGreaterThanOrEqual(3);
    for (const image of images) {
      const response = await fetch(`${site.server.url}${image}`);
      expect(response.status, image).toBe(200);
      expect(response.headers.get('content-type'), image).toBe('image/png');
      expect(pngSize(new Uint8Array(await response.arrayBuffer())), image).toEqual({ width: 1200, height: 630 });
    }
  });
});
