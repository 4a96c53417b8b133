/**
 * What handler tests give the enquiry endpoint: a bare page frame (the hosts write answer pages
 * into the site's built frame, service/functions/page-shell.ts, which only exists after a site
 * build; the browser tests see that one), and its dependencies around a store and an outbox.
 */
import { escapeHtml } from '../../domain/html.ts';
import type { BookingDeps } from '../../service/bookings/index.ts';
import { mailerFromSettings } from '../../service/bookings/mailer.ts';
import type { PageWriter } from '../../service/bookings/responses.ts';
import { readSettings } from '../../service/config.ts';

export const barePage: PageWriter = (page) =>
  `<!doctype html><html lang="en"><head><title>${escapeHtml(page.title)}</title><meta name="robots" content="noindex"></head><body><main>${page.main.value}</main></body></html>`;

/** The endpoint's dependencies: the real outbox in `dataDir`, no limit, the bare frame, and what `base` gives. */
export function handlerDeps(
  base: Pick<BookingDeps, 'catalogue' | 'enquiries' | 'departures' | 'clock'> & { dataDir: string },
  overrides: Partial<BookingDeps> = {},
): BookingDeps {
  const { dataDir, ...given } = base;
  return {
    ...given,
    mailer: mailerFromSettings(readSettings({ DATA_DIR: dataDir }), {
      contactEmail: given.catalogue.site.contactEmail,
    }),
    limiter: null,
    page: barePage,
    ...overrides,
  };
}
