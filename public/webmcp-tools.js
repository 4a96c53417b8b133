// The site's WebMCP tools, loaded by /webmcp.js only where the browser offers them to an agent.
// Their names, descriptions and input schemas come from /webmcp-tools.json (the MCP server's own
// schemas); here is what each does in the page. Results are shaped as MCP tool results. The
// reading tools answer with the JSON of the /v1 request they stand for. start_enquiry fills the
// trip's enquiry form, on this page or on the trip's page, which it opens; it never sends: the
// person checks the form and sends it.

const pending = 'webmcp-enquiry';

const query = (args) => {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(args || {}))
    if (value !== undefined && value !== null) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
};

const said = (text, isError) => ({ content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) });

const read = (path) => async (args) => {
  const response = await fetch(`/v1${path}${query(args)}`, { headers: { Accept: 'application/json' } });
  const data = await response.json();
  return { ...said(JSON.stringify(data), !response.ok), structuredContent: data };
};

const fields = ['name', 'phone', 'email', 'groupSize', 'message'];

function set(control, value) {
  control.value = String(value);
  control.dispatchEvent(new Event('input', { bubbles: true }));
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

// Fills the form with what the person gave; returns what the agent should tell them.
function fill(form, args) {
  for (const name of fields)
    if (args[name] !== undefined && args[name] !== null && form.elements[name]) set(form.elements[name], args[name]);
  const wanted = args.preferredDeparture;
  if (wanted) {
    const select = form.querySelector('[data-departure-choice]:not([hidden]) select');
    const option = select && [...select.options].find((o) => o.value === wanted);
    if (option) set(select, wanted);
    else {
      if (select) set(select, 'other');
      set(form.elements.preferredDeparture, wanted);
    }
  }
  const status = form.querySelector('[role=status]');
  if (status)
    status.textContent =
      'Filled in at your assistant’s request. Check each field, then press “Send enquiry”; nothing is sent until you do.';
  form.scrollIntoView({ block: 'start' });
  const empty = [...form.querySelectorAll('[required]')].find((input) => !input.value);
  (empty || form.querySelector('button[type=submit]')).focus({ preventScroll: true });
  const missing = empty ? ` Still missing: ${empty.name}.` : '';
  return said(
    `The enquiry form is filled in for the person to check and send themselves; nothing has been sent.${missing} Once they press “Send enquiry”, a guide calls them back to confirm seats and dates.`,
  );
}

async function startEnquiry(args) {
  const form = document.querySelector('form[data-enquiry]');
  if (form && form.elements.tripSlug && form.elements.tripSlug.value === args.tripSlug) return fill(form, args);
  // Another trip's form: open its page, which fills it from here (this tab only, never sent anywhere).
  const response = await fetch(`/v1/trips/${encodeURIComponent(args.tripSlug)}`, {
    headers: { Accept: 'application/json' },
  });
  const body = await response.json();
  if (!response.ok) return said(JSON.stringify(body), true);
  sessionStorage.setItem(pending, JSON.stringify(args));
  const departure = args.preferredDeparture ? `?departure=${encodeURIComponent(args.preferredDeparture)}` : '';
  setTimeout(() => location.assign(`${new URL(body.data.url).pathname}${departure}#enquiry-form`));
  return said(
    `Opening the page of ${body.data.name}, with its enquiry form filled in for the person to check and send themselves; nothing has been sent.`,
  );
}

const work = { list_trips: read('/trips'), list_departures: read('/departures'), start_enquiry: startEnquiry };

export async function register(context) {
  const { tools } = await (await fetch('/webmcp-tools.json')).json();
  for (const tool of tools) {
    const execute = work[tool.name];
    if (execute) await context.registerTool({ ...tool, execute });
  }
  // An enquiry started on another page, for this trip.
  const waiting = sessionStorage.getItem(pending);
  const form = document.querySelector('form[data-enquiry]');
  if (waiting && form) {
    const args = JSON.parse(waiting);
    if (form.elements.tripSlug && form.elements.tripSlug.value === args.tripSlug) {
      sessionStorage.removeItem(pending);
      fill(form, args);
    }
  }
}
