/**
 * Where the altitude chart writes the names of its high points: in rows above the plot, each
 * joined to its mark by a leader line. A label may sit centred on its mark, to its left or to
 * its right, on one line or two (name, then altitude); the placement found uses the fewest rows
 * in which no two labels touch and no leader runs through another label.
 */

export interface LabelRequest {
  /** The mark's x. */
  x: number;
  name: string;
  altitude: string;
}

export interface PlacedLabel {
  /** Row of the first line, counted from the top. */
  row: number;
  lines: { text: string; left: number; width: number }[];
}

export interface LabelArea {
  width: number;
  margin: number;
  /** Gap kept between two labels on one row. */
  gap: number;
  /** Estimated width of a text. */
  measure: (text: string) => number;
}

interface Candidate {
  lines: { text: string; width: number }[];
  left: number;
  right: number;
  x: number;
}

/** The ways one label can be set, best first. */
function candidates(request: LabelRequest, area: LabelArea): Candidate[] {
  const { width, margin, measure } = area;
  const room = width - 2 * margin;
  const fit = (text: string) => {
    if (measure(text) <= room) return text;
    let cut = text;
    while (cut.length > 1 && measure(`${cut}…`) > room) cut = cut.slice(0, -1);
    return `${cut.trimEnd()}…`;
  };
  const one = `${request.name} ${request.altitude}`;
  const settings = [...(measure(one) <= room ? [[one]] : []), [fit(request.name), request.altitude]];
  const found: Candidate[] = [];
  for (const texts of settings) {
    const lines = texts.map((text) => ({ text, width: measure(text) }));
    const w = Math.max(...lines.map((l) => l.width));
    for (const wanted of [request.x - w / 2, request.x - w + 4, request.x - 4]) {
      const left = Math.min(Math.max(wanted, margin), width - margin - w);
      if (!found.some((c) => c.lines.length === lines.length && c.left === left))
        found.push({ lines, left, right: left + w, x: request.x });
    }
  }
  return found;
}

interface Choice {
  candidate: Candidate;
  row: number;
  last: number;
}

function compatible(a: Choice, b: Choice, gap: number, leaders: boolean): boolean {
  const shareRows = a.row <= b.last && b.row <= a.last;
  if (shareRows && a.candidate.left - gap < b.candidate.right && b.candidate.left - gap < a.candidate.right)
    return false;
  if (!leaders) return true;
  // A leader runs from under its label down to the plot, through every lower row.
  const under = (x: number, c: Candidate) => x >= c.left - 2 && x <= c.right + 2;
  if (b.last > a.last && under(a.candidate.x, b.candidate)) return false;
  if (a.last > b.last && under(b.candidate.x, a.candidate)) return false;
  return true;
}

export function placeLabels(
  requests: readonly LabelRequest[],
  area: LabelArea,
): { labels: PlacedLabel[]; rows: number } {
  const options = requests.map((r) => candidates(r, area));
  const chosen: Choice[] = [];
  let budgetOfSteps = 50_000;

  const search = (i: number, rows: number): boolean => {
    if (i === options.length) return true;
    for (const candidate of options[i] ?? []) {
      for (let row = 0; row + candidate.lines.length <= rows; row += 1) {
        if ((budgetOfSteps -= 1) < 0) return false;
        const choice = { candidate, row, last: row + candidate.lines.length - 1 };
        if (!chosen.every((c) => compatible(c, choice, area.gap, true))) continue;
        chosen.push(choice);
        if (search(i + 1, rows)) return true;
        chosen.pop();
      }
    }
    return false;
  };

  let solved = false;
  for (let rows = 1; rows <= 2 * requests.length + 1 && !solved; rows += 1) solved = search(0, rows);
  if (!solved) {
    // Too many labels to keep every leader clear: keep the words apart, first rows first.
    chosen.length = 0;
    for (const option of options) {
      const candidate = option[0];
      if (!candidate) continue;
      let row = 0;
      while (
        !chosen.every((c) => compatible(c, { candidate, row, last: row + candidate.lines.length - 1 }, area.gap, false))
      )
        row += 1;
      chosen.push({ candidate, row, last: row + candidate.lines.length - 1 });
    }
  }
  return {
    labels: chosen.map((c) => ({
      row: c.row,
      lines: c.candidate.lines.map((l) => ({ text: l.text, left: c.candidate.left, width: l.width })),
    })),
    rows: Math.max(0, ...chosen.map((c) => c.last + 1)),
  };
}
