/**
 * The departure search as an MCP App view (service/mcp/views.ts), on the `App` class of the
 * official @modelcontextprotocol/ext-apps package. Built with the site into one HTML document
 * (scripts/mcp-app.ts); the MCP server fills in its data (service/mcp/departure-view.ts).
 *
 * It shows what the host hands it: the result of `list_departures` (the cards of the board) or
 * of `get_trip` (that trip's dates, asked for through the host). Changing a filter calls
 * `list_departures` through the host; "Enquire for this date" opens a small form, and only the
 * person's Send calls `send_enquiry` through the host, which checks, counts and stores it as
 * POST /api/bookings does, and the view shows the reference. The view fetches nothing itself and
 * writes every value as text (textContent), never as markup. It follows the host's theme, style
 * variables, fonts and size hints.
 */
import {
  App,
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { formatInr } from '../../domain/format.ts';
import type { Departure } from '../../domain/schemas/departure.ts';
import { dateRange, isBookable, seatsLine, statusLabel } from '../../service/departures/departure-words.ts';
import type { SearchField } from '../../service/departures/search-form.ts';
import type { DepartureViewData } from '../../service/mcp/departure-view.ts';

type ToolResult = Awaited<ReturnType<App['callServerTool']>>;
type Args = Record<string, string | number>;

const data = JSON.parse(document.getElementById('view-data')?.textContent ?? 'null') as DepartureViewData;
const filters = document.getElementById('filters') as HTMLFormElement;
const filterPanel = document.getElementById('filter-panel') as HTMLDetailsElement;
const filterCount = document.getElementById('filter-count') as HTMLElement;
const searchStatus = document.getElementById('search-status') as HTMLElement;
const cards = document.getElementById('cards') as HTMLUListElement;
const title = document.getElementById('view-title') as HTMLElement;

/** An element with attributes and children; every string child is a text node, never markup. */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number | boolean | undefined> = {},
  ...children: (Node | string | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== undefined) node.append(child);
  return node;
}

const app = new App({ name: 'departure-search', version: '1.0.0' }, { availableDisplayModes: ['inline'] });

// The host's look: theme, style variables, fonts, and how much room the view has.
function followHost(context: McpUiHostContext): void {
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
  const room = context.containerDimensions;
  if (room) {
    // A fixed height: fill it and scroll inside; a maximum: grow to it (the App reports the size).
    document.documentElement.classList.toggle('fill', 'height' in room);
    const max = 'maxHeight' in room ? room.maxHeight : undefined;
    document.documentElement.style.maxHeight = max ? `${max}px` : '';
    document.documentElement.style.overflowY = max ? 'auto' : '';
  }
  const insets = context.safeAreaInsets;
  if (insets) document.body.style.padding = `${insets.top}px ${insets.right}px ${insets.bottom}px ${insets.left}px`;
}

// ---- The filters, as the board's form has them ----

function filterControl(field: SearchField): HTMLElement {
  const id = `filter-${field.name}`;
  const labelled = (...controls: Node[]) => el('div', {}, el('label', { for: id }, field.label), ...controls);
  const input = (attributes: Record<string, string | number>) => el('input', { id, name: field.name, ...attributes });
  switch (field.kind) {
    case 'date':
      return labelled(input({ type: 'date' }));
    case 'select':
      return labelled(
        el(
          'select',
          { id, name: field.name },
          el('option', { value: '' }, field.any),
          ...field.options.map((o) => el('option', { value: o.value }, o.label)),
        ),
      );
    case 'number':
      return labelled(
        input({
          type: 'number',
          inputmode: 'numeric',
          min: 1,
          max: field.max,
          step: field.step,
          placeholder: field.placeholder,
        }),
      );
    case 'text':
      return labelled(
        input({
          type: 'text',
          list: `${id}-suggestions`,
          minlength: field.minLength,
          maxlength: field.maxLength,
          autocomplete: 'off',
          placeholder: field.placeholder,
        }),
        el('datalist', { id: `${id}-suggestions` }, ...field.suggestions.map((s) => el('option', { value: s }))),
      );
  }
}

filters.querySelector('.fields')?.append(...data.filters.map(filterControl));

const numberFilters = new Set<string>(data.filters.filter((f) => f.kind === 'number').map((f) => f.name));

function controlOf(name: string): HTMLInputElement | HTMLSelectElement | null {
  return filters.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null;
}

/** The form filled in with a search's arguments (what the tool was called with). */
function showArguments(args: Record<string, unknown>): void {
  for (const field of data.filters) {
    const control = controlOf(field.name);
    const value = args[field.name];
    if (control) control.value = typeof value === 'string' || typeof value === 'number' ? String(value) : '';
  }
  countFilters();
}

/** How many filters are chosen, beside the panel's name, so a folded panel still says it. */
function countFilters(): void {
  const chosen = Object.keys(chosenArguments()).length;
  filterCount.textContent = chosen === 0 ? '' : ` · ${chosen} chosen`;
}

/** The search the form asks for: the filters given, numbers as numbers. */
function chosenArguments(): Args {
  const args: Args = {};
  for (const field of data.filters) {
    const value = controlOf(field.name)?.value.trim() ?? '';
    if (value !== '') args[field.name] = numberFilters.has(field.name) ? Number(value) : value;
  }
  return args;
}

// ---- The results: the board's cards ----

let searches = 0;

function textOf(result: ToolResult): string {
  return result.content
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n')
    .trim();
}

function showDepartures(result: ToolResult): void {
  if (result.isError) {
    searchStatus.textContent = textOf(result) || 'The search could not be made.';
    return;
  }
  const departures = (result.structuredContent as { data?: Departure[] } | undefined)?.data ?? [];
  cards.replaceChildren(...departures.map(card));
  searchStatus.textContent =
    departures.length === 0
      ? 'No departure on sale fits these filters. Change one, or ask the team about other dates on the trip’s page.'
      : `${departures.length === 1 ? '1 date' : `${departures.length} dates`}, earliest first. A guide confirms every seat after you enquire.`;
}

/** Asks the host for the departures of a search (a `tools/call` of list_departures); the latest search wins. */
async function search(args: Args): Promise<void> {
  const mine = ++searches;
  searchStatus.textContent = 'Finding dates…';
  try {
    const result = await app.callServerTool({ name: 'list_departures', arguments: args });
    if (mine === searches) showDepartures(result);
  } catch (error) {
    if (mine === searches) searchStatus.textContent = `The search could not be made: ${messageOf(error)}`;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function link(url: string, text: string): HTMLAnchorElement {
  const a = el('a', { href: url, target: '_blank', rel: 'noopener' }, text);
  // The host opens it (ui/open-link) where it can; otherwise the link is followed as written.
  a.addEventListener('click', (event) => {
    if (!app.getHostCapabilities()?.openLinks) return;
    event.preventDefault();
    app.openLink({ url }).catch(() => window.open(url, '_blank', 'noopener'));
  });
  return a;
}

function card(d: Departure): HTMLLIElement {
  const trip = data.trips[d.tripSlug];
  const item = el(
    'li',
    { class: 'card', 'data-departure': d.id },
    el('p', { class: 'dates' }, dateRange(d)),
    el('p', { class: 'trip' }, link(d.tripUrl, d.tripName)),
    trip ? el('p', { class: 'facts muted' }, trip.facts) : undefined,
    el(
      'p',
      { class: 'state' },
      el('span', { class: `badge status-${d.status}` }, statusLabel[d.status]),
      ' ',
      el('span', { class: 'seats' }, seatsLine(d)),
    ),
    d.note ? el('p', { class: 'note muted' }, d.note) : undefined,
  );
  const price = el(
    'p',
    { class: 'price' },
    formatInr(d.priceInr),
    d.priceInr != null ? el('span', { class: 'muted' }, ' per person') : undefined,
  );
  const foot = el('div', { class: 'foot' }, price);
  if (isBookable(d) && trip) {
    const formId = `enquire-${d.id}`;
    const open = el(
      'button',
      { type: 'button', 'aria-expanded': 'false', 'aria-controls': formId },
      'Enquire for this date',
    );
    open.addEventListener('click', () => toggleEnquiry(item, open, d));
    foot.append(open);
  } else {
    foot.append(link(`${d.tripUrl}#enquire`, 'Ask about other dates'));
  }
  item.append(foot);
  return item;
}

// ---- The enquiry: a small form, sent through the host when the person presses Send ----

function field(
  name: string,
  label: string,
  control: HTMLInputElement | HTMLTextAreaElement,
  hint: string | undefined,
  required: boolean,
) {
  const id = control.id;
  control.setAttribute('aria-describedby', `${hint ? `${id}-hint ` : ''}${id}-error`);
  return el(
    'div',
    { class: 'field', 'data-field': name },
    el('label', { for: id }, label, required ? '' : ' (optional)'),
    control,
    hint ? el('p', { class: 'hint', id: `${id}-hint` }, hint) : undefined,
    el('p', { class: 'error', id: `${id}-error` }),
  );
}

function enquiryForm(d: Departure): HTMLFormElement {
  const trip = data.trips[d.tripSlug]!;
  const e = data.enquiry;
  const id = (name: string) => `enquire-${d.id}-${name}`;
  const seats = d.seatsLeft != null && d.seatsLeft > 0 && d.seatsLeft < trip.cap ? d.seatsLeft : undefined;
  const dates = dateRange(d);
  const input = (name: string, attributes: Record<string, string | number | boolean>) =>
    el('input', { id: id(name), name, ...attributes });
  const form = el(
    'form',
    { class: 'enquiry', id: `enquire-${d.id}`, 'aria-labelledby': id('title') },
    el('h2', { id: id('title') }, 'Ask a guide to call you'),
    el('p', { class: 'muted' }, `About ${trip.name}, ${dates}.`),
    field(
      'name',
      e.labels.name,
      input('name', {
        type: 'text',
        required: true,
        autocomplete: 'name',
        pattern: e.patterns.name,
        title: e.titles.name,
      }),
      undefined,
      true,
    ),
    field(
      'phone',
      e.labels.phone,
      input('phone', {
        type: 'tel',
        required: true,
        autocomplete: 'tel',
        inputmode: 'tel',
        pattern: e.patterns.phone,
        title: e.titles.phone,
      }),
      e.hints.phone,
      true,
    ),
    field(
      'email',
      e.labels.email,
      input('email', { type: 'email', autocomplete: 'email', pattern: e.patterns.email, title: e.titles.email }),
      e.hints.email,
      false,
    ),
    field(
      'groupSize',
      e.labels.groupSize,
      input('groupSize', {
        type: 'number',
        required: true,
        inputmode: 'numeric',
        min: 1,
        max: seats ?? trip.cap,
        step: 1,
        value: 1,
        title: seats ? e.tooMany.replace('{dates}', dates).replaceAll('{seats}', String(seats)) : trip.groupMessage,
      }),
      `1 to ${trip.cap} for this trip.${seats ? ` ${e.seatsHint.replace('{dates}', dates).replace('{seats}', String(seats))}` : ''}`,
      true,
    ),
    field(
      'message',
      e.labels.message,
      el('textarea', { id: id('message'), name: 'message', rows: 3, maxlength: e.messageMax }),
      e.hints.message,
      false,
    ),
    el('p', { class: 'hint' }, e.consent),
  );
  const send = el('button', { type: 'submit' }, 'Send enquiry');
  const cancel = el('button', { type: 'button', class: 'secondary' }, 'Cancel');
  const status = el('p', { class: 'status', role: 'status', id: id('status') });
  form.append(el('div', { class: 'actions' }, send, cancel), status);
  cancel.addEventListener('click', () => {
    const item = form.closest('li');
    const opener = item?.querySelector<HTMLButtonElement>('button[aria-controls]');
    if (item && opener) toggleEnquiry(item, opener, d);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void sendEnquiry(form, d, send, status);
  });
  return form;
}

function toggleEnquiry(item: HTMLLIElement, opener: HTMLButtonElement, d: Departure): void {
  const shown = item.querySelector<HTMLFormElement>('form.enquiry');
  if (shown) {
    shown.remove();
    opener.setAttribute('aria-expanded', 'false');
    opener.focus();
    return;
  }
  const form = enquiryForm(d);
  item.append(form);
  opener.setAttribute('aria-expanded', 'true');
  form.querySelector('input')?.focus();
}

/** Each field's refusal next to it: the server's words (from the tool's answer), or the browser's. */
function showFieldErrors(form: HTMLFormElement, errors: { field: string; message: string }[]): void {
  for (const box of form.querySelectorAll<HTMLElement>('[data-field]')) {
    const error = errors.find((e) => e.field === box.dataset.field);
    box.querySelector('.error')!.textContent = error?.message ?? '';
    const control = box.querySelector('input, textarea');
    if (error) control?.setAttribute('aria-invalid', 'true');
    else control?.removeAttribute('aria-invalid');
  }
  const first = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  first?.focus();
}

function browserErrors(form: HTMLFormElement): { field: string; message: string }[] {
  const e = data.enquiry;
  const missing: Record<string, string> = e.missing;
  return [...form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')]
    .filter((control) => !control.checkValidity())
    .map((control) => ({
      field: control.name,
      message: control.validity.valueMissing ? (missing[control.name] ?? control.title) : control.title,
    }));
}

async function sendEnquiry(
  form: HTMLFormElement,
  d: Departure,
  send: HTMLButtonElement,
  status: HTMLElement,
): Promise<void> {
  const refused = browserErrors(form);
  showFieldErrors(form, refused);
  if (refused.length > 0) {
    status.textContent = 'Please check the fields marked.';
    return;
  }
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim();
  const args: Record<string, string | number> = {
    tripSlug: d.tripSlug,
    name: value('name'),
    phone: value('phone'),
    groupSize: Number(value('groupSize')),
    preferredDeparture: d.id,
  };
  if (value('email')) args.email = value('email');
  if (value('message')) args.message = value('message');
  send.disabled = true;
  status.textContent = 'Sending…';
  try {
    const result = await app.callServerTool({ name: 'send_enquiry', arguments: args });
    if (result.isError) {
      const answer = refusalOf(result);
      showFieldErrors(form, answer.fields);
      status.textContent = answer.message;
      send.disabled = false;
      return;
    }
    showSent(form, d, result);
  } catch (error) {
    status.textContent = `No answer came back (${messageOf(error)}), so the enquiry may not have been sent. Try again, or use the form on the trip’s page.`;
    send.disabled = false;
  }
}

/** The endpoint's refusal, as send_enquiry passes it on: its JSON body in the second text block. */
function refusalOf(result: ToolResult): { message: string; fields: { field: string; message: string }[] } {
  const blocks = result.content.filter((b) => b.type === 'text').map((b) => b.text);
  try {
    const body = JSON.parse(blocks[1] ?? '') as {
      error: { message: string; fields?: { field: string; message: string }[] };
      next?: string;
    };
    return {
      message: [body.error.message, body.next].filter(Boolean).join(' '),
      fields: body.error.fields ?? [],
    };
  } catch {
    return { message: blocks[0] ?? 'The enquiry was not sent.', fields: [] };
  }
}

function showSent(form: HTMLFormElement, d: Departure, result: ToolResult): void {
  const body = result.structuredContent as { enquiry: { id: string }; next: string };
  const heading = el('h2', { tabindex: -1 }, 'Enquiry sent');
  const sent = el(
    'div',
    { class: 'enquiry sent', role: 'status' },
    heading,
    el('p', {}, 'Your reference: ', el('strong', { class: 'reference' }, body.enquiry.id)),
    el('p', {}, body.next),
  );
  form.replaceWith(sent);
  const opener = sent.closest('li')?.querySelector('button[aria-controls]');
  opener?.remove();
  heading.focus();
  // The conversation learns it too, so nobody sends the same enquiry again.
  if (app.getHostCapabilities()?.updateModelContext) {
    const trip = data.trips[d.tripSlug];
    app
      .updateModelContext({
        content: [
          {
            type: 'text',
            text: `The person sent an enquiry from the departure view for ${trip?.name ?? d.tripName}, ${dateRange(d)}: reference ${body.enquiry.id}. ${body.next}`,
          },
        ],
      })
      .catch(() => undefined);
  }
}

// ---- The search as the person changes it ----

let pending: ReturnType<typeof setTimeout> | undefined;

function searchSoon(delay: number): void {
  clearTimeout(pending);
  pending = setTimeout(() => {
    if (filters.checkValidity()) void search(chosenArguments());
    else filters.reportValidity();
  }, delay);
}

filters.addEventListener('change', () => {
  countFilters();
  searchSoon(300);
});
// Open where there is room for the fields beside the dates; folded on a phone, one tap away.
filterPanel.open = document.documentElement.clientWidth >= 560;
filters.addEventListener('submit', (event) => {
  event.preventDefault();
  searchSoon(0);
});

// ---- What the host hands over: the tool's arguments and result ----

app.ontoolinput = ({ arguments: args }) => {
  if (args) showArguments(args);
};

app.ontoolresult = (result) => {
  const content = result.structuredContent as { data?: unknown } | undefined;
  if (!result.isError && content && !Array.isArray(content.data) && typeof content.data === 'object') {
    // get_trip: that trip's dates, asked for through the host.
    const slug = (content.data as { slug?: unknown }).slug;
    if (typeof slug === 'string') {
      title.textContent = `Dates of ${data.trips[slug]?.name ?? slug}`;
      showArguments({ trip: slug });
      void search({ trip: slug });
      return;
    }
  }
  showDepartures(result);
};

app.ontoolcancelled = () => {
  searchStatus.textContent = 'The search was stopped before it answered. Change a filter to search again.';
};

app.onhostcontextchanged = followHost;
app.onteardown = async () => ({});

await app.connect();
followHost(app.getHostContext() ?? {});
