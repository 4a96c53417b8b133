// The trip index filters (src/components/TripFilter.astro) work by CSS alone; this adds what CSS
// cannot: the filter read from and kept in the address (so /treks?difficulty=Moderate works and
// can be shared), and a spoken count of the trips shown.
(() => {
  const index = document.querySelector('.trip-index');
  const form = index && index.querySelector('[data-trip-filter] form');
  if (!form) return;
  const details = form.closest('details');
  const status = index.querySelector('[data-finder-status]');
  const cards = [...index.querySelectorAll('.cards > li')];
  const names = ['region', 'difficulty', 'days'];
  const token = (value) => value.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

  const report = () => {
    const shown = cards.filter((card) => getComputedStyle(card).display !== 'none').length;
    const filtered = names.some((name) => (form.elements[name] && form.elements[name].value) || '');
    if (!status) return;
    status.textContent = !filtered ? '' : shown === 0 ? 'No trips match these filters. Choose "Show all" to see every trip.' : `Showing ${shown} of ${cards.length}.`;
  };

  const params = new URLSearchParams(location.search);
  let applied = false;
  for (const name of names) {
    const wanted = params.get(name);
    if (!wanted) continue;
    const input = form.querySelector(`input[name="${name}"][value="${token(wanted)}"]`);
    if (input) {
      input.checked = true;
      applied = true;
    }
  }
  if (applied && details) details.open = true;

  const remember = () => {
    const next = new URLSearchParams();
    for (const name of names) {
      const value = form.elements[name] && form.elements[name].value;
      if (value) next.set(name, value);
    }
    const query = next.toString();
    history.replaceState(null, '', query ? `?${query}` : location.pathname);
    report();
  };
  form.addEventListener('change', remember);
  form.addEventListener('reset', () => setTimeout(remember));
  report();
})();
