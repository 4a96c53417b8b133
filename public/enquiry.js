// Enhances the enquiry form (service/bookings/form-html.ts): offers the trip's live departures as
// dates and preselects one ("Enquire for this date", ?departure=<id>), says when a field is too
// long on leaving it, posts JSON, shows each error next to its field and announces the outcome.
// Without this file the form posts as plain HTML with a free-text date.
(() => {
  const form = document.querySelector('form[data-enquiry]');
  if (!form || !window.fetch) return;
  const status = form.querySelector('[role=status]');
  const button = form.querySelector('button[type=submit]');
  const choice = form.querySelector('[data-departure-choice]');
  const select = choice.querySelector('select');
  const datesField = form.querySelector('[data-dates-text]');
  const dates = datesField.querySelector('input');
  // The server's messages are plainer than the browser's bubbles, so it checks the fields.
  form.noValidate = true;

  const say = (text, outcome) => {
    status.textContent = text;
    status.dataset.outcome = outcome || '';
  };
  const errorOf = (name) => document.getElementById(`enquiry-${name}-error`);
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
    const n = [...input.value.trim()].length;
    return n > Number(input.dataset.maxChars) ? input.dataset.tooLong.replace('{n}', n) : '';
  };

  form.addEventListener('focusout', ({ target }) => {
    if (!target.dataset || !target.dataset.maxChars) return;
    const message = tooLong(target);
    if (message) mark(target, message);
    else if (target.getAttribute('aria-invalid')) clear(target);
  });

  // Dates: a departure chosen fills the (hidden) free-text field, which is what is sent.
  let typed = dates.value;
  dates.addEventListener('input', () => (typed = dates.value));
  const showDates = () => {
    const option = select.selectedOptions[0];
    const other = select.value === 'other';
    datesField.hidden = !other;
    dates.value = other ? typed : (option && option.dataset.dates) || '';
  };
  select.addEventListener('change', showDates);
  form.addEventListener('reset', () => setTimeout(() => ((typed = ''), showDates())));

  const offer = (slot) => {
    const cards = [...slot.querySelectorAll('[data-departure]')].filter((c) => /^(open|filling)$/.test(c.dataset.status));
    if (!cards.length || !choice.hidden) return;
    select.lastElementChild.before(
      ...cards.map((c) => {
        const when = c.querySelector('.departure-dates').textContent.trim();
        const o = new Option(c.dataset.status === 'filling' ? `${when}, filling fast` : when, c.dataset.departure);
        o.dataset.dates = when;
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
    if (document.readyState !== 'complete') addEventListener('load', () => setTimeout(() => document.activeElement === document.body && focus()), { once: true });
    return true;
  };

  document.addEventListener('live-departures', (event) => offer(event.detail.slot));
  const loaded = document.querySelector('[data-live-departures-for][data-loaded]');
  if (loaded) offer(loaded);

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

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    for (const input of form.querySelectorAll('[aria-invalid]')) clear(input);
    // Over-long fields are refused here, without using up one of the few sends the limit allows.
    const long = [...form.querySelectorAll('[data-max-chars]')].map((input) => ({ field: input.name, message: tooLong(input) })).filter((e) => e.message);
    if (long.length) {
      say(long.length === 1 ? long[0].message : `${long.length} fields need another look. ${long[0].message}`, 'bad');
      show(long);
      return;
    }
    const data = Object.fromEntries(new FormData(form));
    if (/^\d+$/.test(data.groupSize)) data.groupSize = Number(data.groupSize);
    button.disabled = true;
    say('Sending your enquiry…');
    let body;
    try {
      const response = await fetch(form.action, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify(data),
      });
      body = await response.json();
    } catch {
      button.disabled = false;
      say('Your enquiry could not be sent. Check your connection and try again.', 'bad');
      return;
    }
    button.disabled = false;
    // Received, or saved to be sent later: either way it must not be sent again.
    if (body.enquiry) {
      form.reset();
      say(body.next, 'ok');
      return;
    }
    say(body.error.message, 'bad');
    show(body.error.fields || []);
  });
})();
