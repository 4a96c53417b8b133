// The trip index filters (src/components/TripFilter.astro) work by CSS alone; this adds what CSS
// cannot: the filter read from and kept in the address (so /treks?difficulty=Moderate works and
// can be shared), a spoken count of the trips shown, and the choice carried into the link to the
// departure search (each choice's data-search holds its search parameters).
(() => {
  const index = document.querySelector('.trip-index');
  const form = index && index.querySelector('[data-trip-filter] [role="group"]');
  if (!form) return;
  const details = form.closest('details');
  const valueOf = (name) => {
    const checked = form.querySelector(`input[name="${name}"]:checked`);
    return checked ? checked.value : '';
  };
  const status = index.querySelector('[data-finder-status]');
  const cards = [...index.querySelectorAll('.cards > li')];
  const names = ['region', 'difficulty', 'days'];
  const token = (value) =>
    value
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');

  const labels = { region: 'region', difficulty: 'difficulty', days: 'length' };
  const ignored = [];
  const report = () => {
    const shown = cards.filter((card) => getComputedStyle(card).display !== 'none').length;
    const filtered = names.some((name) => valueOf(name));
    if (!status) return;
    const note = ignored.length ? `We did not recognise ${ignored.join(' or ')}, so that filter is not applied. ` : '';
    status.textContent =
      note +
      (!filtered
        ? ''
        : shown === 0
          ? 'No trips match these filters. Choose "Show all" to see every trip.'
          : `Showing ${shown} of ${cards.length}.`);
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
    } else {
      ignored.push(`${labels[name]} "${wanted.slice(0, 40)}"`);
    }
  }
  if (applied && details) details.open = true;

  const searchLink = index.parentElement.querySelector('[data-search-link]');
  const searchBase = searchLink && searchLink.getAttribute('href');
  const follow = () => {
    if (!searchLink) return;
    const parts = names
      .map((name) => form.querySelector(`input[name="${name}"]:checked`))
      .map((input) => (input && input.dataset.search) || '')
      .filter(Boolean);
    searchLink.setAttribute('href', [searchBase, ...parts].join('&'));
  };

  const remember = () => {
    const next = new URLSearchParams();
    for (const name of names) {
      const value = valueOf(name);
      if (value) next.set(name, value);
    }
    const query = next.toString();
    history.replaceState(null, '', query ? `?${query}` : location.pathname);
    report();
    follow();
  };
  form.addEventListener('change', remember);
  report();
  follow();
})();
