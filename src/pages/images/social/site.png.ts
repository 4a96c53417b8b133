/** /images/social/site.png: the social card of every page that is not a trip page; see social-card.ts. */
import type { APIRoute } from 'astro';
import { siteSocialCard } from '../../../components/social-card.ts';
import { getCatalogue } from '../../../lib/catalogue.ts';

export const GET: APIRoute = async () =>
  new Response(new Uint8Array(await siteSocialCard(await getCatalogue())), {
    headers: { 'Content-Type': 'image/png' },
  });
