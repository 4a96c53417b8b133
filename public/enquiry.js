// Enhances the enquiry form (service/bookings/form-html.ts): offers the trip's live departures as
// dates and preselects one ("Enquire for this date", ?departure=<id>), checks every field before
// anything is sent (dates that have passed among them), posts JSON, shows each error next to its
// field, and once the enquiry is taken opens its confirmation page, as the plain form does.
// Each enquiry carries a one-time token as its Idempotency-Key: sent again unchanged (a double
// click, a retry after a timeout), it is taken once and answered with the same reference.
// The checks are the browser's own constraints, which the form carries from the server's rules,
// said in the server's words; a group larger than the seats left on the chosen date is one of
// them. Without this file the browser checks the same constraints itself, and the form posts as
// plain HTML with a free-text date.
(() => {
  const form = document.querySelector('form[data-enquiry]');
  if (!form || !window.fetch) return;
  const status = form.querySelector('[role=status]');
  const button = form.querySelector('button[type=submit]');
  const choice = form.querySelector('[data-departure-choice]');
  const select = choice.querySelector('select');
  const datesField = form.querySelector('[data-dates-text]');
  const dates = datesField.querySelector('input');
  const group = form.elements.groupSize;
  const seatsHint = form.querySelector('.seats-hint');
  // The token is the form's until an enquiry is taken, or what it says changes.
  const token = form.elements.formToken;
  const newToken = () =>
    Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
  if (token && !token.value) token.value = newToken();
  let lastSent = '';
  // The message's limit is said, not enforced by cutting what is pasted.
  for (const area of form.querySelectorAll('textarea[maxlength]')) area.removeAttribute('maxlength');

  const say = (text, outcome) => {
    status.textContent = text;
    status.dataset.outcome = outcome || '';
  };
  const errorOf = (name) => name && document.getElementById(`enquiry-${name}-error`);
  const mark = (input, message) => {
    input.setAttribute('aria-invalid', 'true');
    errorOf(input.name).textContent = message;
  };
  const clear = (input) => {
    input.removeAttribute('aria-invalid');
    errorOf(input.name).textContent = '';
  };
  // The same sentence the server refuses an over-long field with, or ''.
  const tooLong = (input) => {
    const text = input.value.trim();
    const n = [...(input.tagName === 'TEXTAREA' ? text : text.replace(/\s+/g, ' '))].length;
    return n > Number(input.dataset.maxChars) ? input.dataset.tooLong.replace('{n}', n) : '';
  };

  // The seats left on the date in the form: the departure chosen, or the one the page was written for.
  const seats = () => {
    const option = !choice.hidden && select.selectedOptions[0];
    if (option && option.dataset.seats) return { left: option.dataset.seats, when: option.dataset.dates };
    const { seatsLeft, seatsDates } = group.dataset;
    return seatsLeft && dates.value.trim() === seatsDates ? { left: seatsLeft, when: seatsDates } : null;
  };
  const fill = (text, s) => text.replaceAll('{dates}', s.when).replaceAll('{seats}', s.left);
  // The group's bound follows the date: the trip's cap, or the seats left when fewer. (A page
  // written before this script, still in a cache, has no cap to go by.)
  const bound = () => {
    if (!group.dataset.cap || !seatsHint) return;
    const s = seats();
    const cap = Number(group.dataset.cap);
    group.max = s ? Math.min(cap, Number(s.left)) : cap;
    seatsHint.textContent = s ? ` ${fill(group.dataset.seatsHint, s)}` : '';
  };

  // Whether the latest day the text names with a year is before today in India, read as the
  // server reads it (service/bookings/past-dates.ts): a month without a day counts to its end.
  const passed = (input) => {
    const pattern = input.dataset.datePattern;
    let last = 0;
    for (const [, a, name, b, y, isoY, isoM, isoD] of pattern ? input.value.matchAll(new RegExp(pattern, 'gi')) : []) {
      const m = name ? 'janfebmaraprmayjunjulaugsepoctnovdec'.indexOf(name.toLowerCase()) / 3 + 1 : Number(isoM);
      const d = Number(a || b || isoD || 0);
      if (m >= 1 && m <= 12 && d <= 31)
        last = Math.max(last, d ? Date.UTC(y || isoY, m - 1, d) : Date.UTC(y || isoY, m, 0));
    }
    return last > 0 && last < Math.floor((Date.now() + 19_800_000) / 86_400_000) * 86_400_000;
  };

  // What the server would say of this field's value, or ''.
  const problem = (input) => {
    const v = input.validity;
    if (v.badInput) return input.dataset.invalid;
    if (!input.value.trim()) return input.required ? input.dataset.missing : '';
    const long = input.dataset.maxChars && tooLong(input);
    if (long) return long;
    if (v.valid) return passed(input) ? input.dataset.past : '';
    if (input === group && v.rangeOverflow && Number(input.value) <= Number(group.dataset.cap))
      return fill(group.dataset.tooMany, seats());
    return input.dataset.invalid || input.title;
  };
  const check = () => {
    bound();
    return [...form.elements]
      .filter((input) => input.willValidate && errorOf(input.name))
      .map((input) => ({ field: input.name, message: problem(input) }))
      .filter((e) => e.message);
  };
  const recheck = (input) => {
    if (input === group) bound();
    const message = input.value.trim() || input.getAttribute('aria-invalid') ? problem(input) : '';
    if (message) mark(input, message);
    else if (input.getAttribute('aria-invalid')) clear(input);
  };

  // Said on leaving a field for another that has something in it, and cleared as soon as it is
  // right. Not on the way to the send button: a message appearing on mousedown would move the
  // button from under the pointer, and the click would be lost (sending says it anyway).
  form.addEventListener(
    'focusout',
    ({ target, relatedTarget }) => relatedTarget && relatedTarget !== button && errorOf(target.name) && recheck(target),
  );
  form.addEventListener(
    'input',
    ({ target }) => errorOf(target.name) && target.getAttribute('aria-invalid') && !problem(target) && clear(target),
  );

  // Dates: a departure chosen fills the (hidden) free-text field, which is what is sent.
  let typed = dates.value;
  dates.addEventListener('input', () => ((typed = dates.value), bound()));
  const showDates = () => {
    const option = select.selectedOptions[0];
    const other = select.value === 'other';
    datesField.hidden = !other;
    dates.value = other ? typed : (option && option.dataset.dates) || '';
    if (group.value || group.getAttribute('aria-invalid')) recheck(group);
    else bound();
  };
  select.addEventListener('change', showDates);
  form.addEventListener('reset', () => setTimeout(() => ((typed = ''), showDates())));

  const offer = (slot) => {
    const cards = [...slot.querySelectorAll('[data-departure]')].filter((c) =>
      /^(open|filling)$/.test(c.dataset.status),
    );
    if (!cards.length || !choice.hidden) return;
    select.lastElementChild.before(
      ...cards.map((c) => {
        const when = c.querySelector('.departure-dates').textContent.trim();
        const o = new Option(c.dataset.status === 'filling' ? `${when}, filling fast` : when, c.dataset.departure);
        o.dataset.dates = when;
        if (c.dataset.seatsLeft) o.dataset.seats = c.dataset.seatsLeft;
        return o;
      }),
    );
    datesField.querySelector('label').textContent = datesField.dataset.otherLabel;
    choice.hidden = false;
    // Something already typed stays: as its departure when it names one, else as other dates.
    const same = [...select.options].find((o) => o.dataset.dates === dates.value.trim());
    select.value = same ? same.value : dates.value.trim() ? 'other' : '';
    showDates();
    const wanted = new URLSearchParams(location.search).get('departure');
    const hint = choice.querySelector('.hint');
    if (wanted && !choose(wanted)) hint.textContent = hint.dataset.gone;
  };

  // Selects a departure and brings the form into view, focus on the first empty required field.
  const choose = (id) => {
    if (choice.hidden || ![...select.options].some((o) => o.value === id)) return false;
    select.value = id;
    showDates();
    form.scrollIntoView({ block: 'start' });
    const empty = [...form.querySelectorAll('[required]')].find((input) => !input.value);
    const focus = () => (empty || select).focus({ preventScroll: true });
    focus();
    // The browser's own #enquire jump, once loaded, blurs it.
    if (document.readyState !== 'complete')
      addEventListener('load', () => setTimeout(() => document.activeElement === document.body && focus()), {
        once: true,
      });
    return true;
  };

  document.addEventListener('live-departures', (event) => offer(event.detail.slot));
  const loaded = document.querySelector('[data-live-departures-for][data-loaded]');
  if (loaded) offer(loaded);
  bound();

  document.addEventListener('click', (event) => {
    const action = event.target.closest && event.target.closest('[data-enquire]');
    if (!action || !choose(action.dataset.enquire)) return;
    event.preventDefault();
    history.replaceState(null, '', `?departure=${action.dataset.enquire}#enquire`);
  });

  const show = (errors) => {
    let first;
    for (const { field, message } of errors) {
      const input = form.elements[field];
      if (!input || !errorOf(field) || input.type === 'hidden') continue;
      if (field === 'preferredDeparture' && datesField.hidden) {
        select.value = 'other';
        showDates();
      }
      mark(input, message);
      first = first || input;
    }
    if (first) first.focus();
  };
  const refuse = (message, errors) => {
    say(message, 'bad');
    show(errors);
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    for (const input of form.querySelectorAll('[aria-invalid]')) clear(input);
    // Every field is checked here first: a slip never uses up one of the few sends the limit allows.
    const wrong = check();
    if (wrong.length)
      return refuse(
        wrong.length === 1 ? wrong[0].message : `${wrong.length} fields need another look. ${wrong[0].message}`,
        wrong,
      );
    const data = Object.fromEntries(new FormData(form));
    delete data.formToken;
    if (/^\d+$/.test(data.groupSize)) data.groupSize = Number(data.groupSize);
    const sending = JSON.stringify(data);
    // The same enquiry sent again keeps its token, so it is not taken twice; a changed one is a new enquiry.
    if (token && lastSent && sending !== lastSent) token.value = newToken();
    lastSent = sending;
    button.disabled = true;
    say('Sending your enquiry…');
    let body;
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          ...(token ? { 'Idempotency-Key': `"${token.value}"` } : {}),
        },
        body: sending,
      });
      body = await response.json();
    } catch {
      button.disabled = false;
      say('Your enquiry could not be sent. Check your connection and try again.', 'bad');
      return;
    }
    button.disabled = false;
    // Received, or saved to be sent later: either way it must not be sent again, and its page
    // (the one the plain form lands on) says how it stands.
    if (body.enquiry) {
      form.reset();
      if (token) token.value = newToken();
      lastSent = '';
      say(body.next, 'ok');
      if (form.dataset.sent) location.assign(form.dataset.sent + encodeURIComponent(body.enquiry.id));
      return;
    }
    // Refused (over the quota too): what was typed stays in the form, to send when it may.
    refuse(body.error.message, body.error.fields || []);
  });
})();
