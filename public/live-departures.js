// Loads a trip's live departures into its page (src/components/LiveDepartures.astro): the page is
// built once per deploy, the dates and seats come from the departures function each time.
// Without this script the page keeps its link to the same dates on the live departures board.
(() => {
  const slot = document.querySelector('[data-live-departures-for]');
  if (!slot || !window.fetch) return;
  const slug = slot.getAttribute('data-live-departures-for');
  const link = slot.querySelector('.live-link');

  const choose = (card) => {
    const field = document.getElementById('enquiry-preferredDeparture');
    if (!field) return false;
    const dates = card.querySelector('.departure-dates');
    field.value = dates ? dates.textContent.trim() : '';
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return true;
  };

  fetch(`/departures/block?trip=${encodeURIComponent(slug)}`, { headers: { Accept: 'text/html' } })
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
    .then((html) => {
      const block = document.createElement('div');
      block.innerHTML = html;
      slot.replaceChildren(...block.childNodes);
      slot.dataset.loaded = 'true';
      document.dispatchEvent(new CustomEvent('live-departures', { detail: { slot } }));
    })
    .catch(() => {
      if (link) link.insertAdjacentHTML('beforeend', ' <span class="muted">The dates could not be loaded here; the link shows them.</span>');
    });

  // "Enquire for this date" on this page: choose the date in the form instead of reloading.
  slot.addEventListener('click', (event) => {
    const action = event.target.closest('[data-enquire]');
    if (!action) return;
    const card = action.closest('[data-departure]');
    if (!card || !choose(card)) return;
    event.preventDefault();
    const form = document.getElementById('enquiry-form');
    if (form) {
      form.scrollIntoView({ behavior: 'smooth', block: 'start' });
      const name = document.getElementById('enquiry-name');
      if (name) name.focus({ preventScroll: true });
    }
  });
})();
