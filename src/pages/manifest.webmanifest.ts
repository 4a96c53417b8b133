/**
 * /manifest.webmanifest: the web app manifest, so a phone can put the site on its home screen and
 * open it in its own window; the trip pages it kept offline (/sw.js) open there too.
 */
import type { APIRoute } from 'astro';
import { getCatalogue } from '../lib/catalogue.ts';

/** The site's colours, as the page head and the stylesheet give them. */
const colours = { theme: '#0b4f8a', background: '#fdfdfb' };

export const GET: APIRoute = async () => {
  const { site } = await getCatalogue();
  const manifest = {
    name: site.operatorName,
    short_name: site.operatorName,
    description: site.description,
    lang: 'en-IN',
    start_url: '/',
    scope: '/',
    display: 'minimal-ui',
    theme_color: colours.theme,
    background_color: colours.background,
    icons: [{ src: '/favicon.svg', type: 'image/svg+xml', sizes: 'any', purpose: 'any' }],
  };
  return new Response(`${JSON.stringify(manifest, null, 1)}\n`, {
    headers: { 'Content-Type': 'application/manifest+json' },
  });
};
