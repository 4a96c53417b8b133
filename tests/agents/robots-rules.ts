/**
 * RFC 9309 as a crawler reads robots.txt, enough to ask "may this user agent fetch this path":
 * the groups naming the agent's product token (case-insensitive), else the `*` group; within
 * them the longest matching Allow or Disallow wins, Allow on a tie; no match allows.
 */
interface Group {
  agents: string[];
  rules: { allow: boolean; path: string }[];
}

function groups(text: string): Group[] {
  const found: Group[] = [];
  let current: Group | null = null;
  let inAgents = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/#.*/, '').trim();
    const match = /^([A-Za-z-]+)\s*:\s*(.*)$/.exec(line);
    if (!match) continue;
    const [, key = '', value = ''] = match;
    const field = key.toLowerCase();
    if (field === 'user-agent') {
      if (!current || !inAgents) {
        current = { agents: [], rules: [] };
        found.push(current);
      }
      current.agents.push(value.toLowerCase());
      inAgents = true;
    } else if ((field === 'allow' || field === 'disallow') && current) {
      inAgents = false;
      if (value) current.rules.push({ allow: field === 'allow', path: value });
    } else {
      inAgents = false;
    }
  }
  return found;
}

export function robotsAllows(text: string, userAgent: string, path: string): boolean {
  const all = groups(text);
  const token = userAgent.toLowerCase();
  let matching = all.filter((g) => g.agents.includes(token));
  if (matching.length === 0) matching = all.filter((g) => g.agents.includes('*'));
  const rules = matching.flatMap((g) => g.rules).filter((r) => path.startsWith(r.path));
  if (rules.length === 0) return true;
  rules.sort((a, b) => b.path.length - a.path.length || Number(b.allow) - Number(a.allow));
  return rules[0]!.allow;
}
