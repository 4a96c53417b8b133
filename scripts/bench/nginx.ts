/**
 * The same built files (dist/site) served by nginx with one worker process, the usual static
 * server, against server.ts: pages, Markdown twins and small files, where the fixed cost of a
 * request weighs most. nginx comes from Debian (nginx-light, or nginx); when it is missing the
 * bench installs it as CI installs its packages (apt-get, as root), and when it cannot, the
 * section says so instead of failing the run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cachePolicy } from '../../service/http/cache-policy.ts';
import { mediaTypes } from '../../service/host/static-files.ts';
import { securityHeaders } from '../../service/rules/security-headers.ts';
import { freePort } from '../../tests/helpers/project.ts';
import { comparisonHeader, comparisonRow } from './http.ts';
import { interleaved, type LoadSettings } from './load.ts';
import { childrenOf, onServerCore, type ChildServer } from './processes.ts';
import { fixed, ratio, type Section } from './report.ts';

const candidates = ['/usr/sbin/nginx', '/usr/bin/nginx'];

/** The nginx binary, installed from Debian first when it is missing and this process may; null otherwise. */
function nginxBinary(): { binary: string | null; note: string } {
  const found = () => candidates.find((file) => existsSync(file)) ?? null;
  if (found()) return { binary: found(), note: '' };
  if (process.getuid?.() !== 0)
    return {
      binary: null,
      note: 'nginx is not installed and the bench is not running as root to install it (apt-get install nginx-light)',
    };
  console.log('[bench] installing nginx-light from Debian');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const installed = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'nginx-light'], {
    stdio: 'inherit',
    env,
  });
  return found()
    ? { binary: found(), note: '' }
    : { binary: null, note: `apt-get install nginx-light failed (exit ${installed.status})` };
}

function nginxVersion(binary: string): string {
  const result = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  return /nginx\/([\d.]+)/.exec(`${result.stderr}${result.stdout}`)?.[1] ?? 'unknown';
}

interface Nginx {
  url: string;
  /** The master and its one worker. */
  pids: number[];
  stop(): Promise<void>;
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

async function startNginx(binary: string, siteDir: string): Promise<Nginx> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-nginx-'));
  const types = Object.entries(mediaTypes)
    .map(([extension, type]) => `    ${type.split(';')[0]} ${extension.slice(1)};`)
    .join('\n');
  const headers = Object.entries(securityHeaders({ https: false }))
    .map(([name, value]) => `      add_header ${name} ${quoted(value)} always;`)
    .join('\n');
  const config = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  types {
${types}
  }
  default_type application/octet-stream;
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 100000;
  open_file_cache max=1000 inactive=60s;
  etag on;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${path.join(siteDir, 'dist', 'site')};
    location / {
      try_files $uri $uri.html $uri/index.html =404;
      add_header Cache-Control "${cachePolicy.page}" always;
${headers}
    }
  }
}
`;
  writeFileSync(path.join(dir, 'nginx.conf'), config);
  const [command, args] = onServerCore(binary, ['-c', path.join(dir, 'nginx.conf'), '-p', dir]);
  const master = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  master.stderr.on('data', (d) => (errors += String(d)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (master.exitCode === null) {
      const exited = new Promise((r) => master.once('exit', r));
      master.kill('SIGQUIT');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; ; i += 1) {
    try {
      await (await fetch(`${url}/robots.txt`)).arrayBuffer();
      break;
    } catch {
      if (master.exitCode !== null || i > 100) {
        await stop();
        throw new Error(
          `nginx did not start: ${errors}${existsSync(path.join(dir, 'error.log')) ? readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`,
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url, pids: [master.pid!, ...childrenOf(master.pid!)], stop };
}

export interface NginxTarget {
  label: string;
  path: string;
}

export async function nginxSection(
  server: ChildServer,
  siteDir: string,
  targets: NginxTarget[],
  load: LoadSettings,
  goal: number,
): Promise<Section> {
  const title = 'Pages and files against nginx';
  // The rows are comparisonRow's, nginx in the baseline's place.
  const header = comparisonHeader.map((name) => name.replace(/baseline/i, 'nginx'));
  const { binary, note } = nginxBinary();
  if (!binary) return { title, about: `Not measured: ${note}.`, header, rows: [], findings: [] };
  const nginx = await startNginx(binary, siteDir);
  const rows: string[][] = [];
  const findings: string[] = [];
  try {
    for (const t of targets) {
      const served = await fetch(`${server.url}${t.path}`, { headers: { 'Accept-Encoding': 'identity' } });
      const bytes = (await served.arrayBuffer()).byteLength;
      const fromNginx = await fetch(`${nginx.url}${t.path}`);
      await fromNginx.arrayBuffer();
      if (served.status !== 200 || fromNginx.status !== 200)
        throw new Error(`${t.path}: server.ts ${served.status}, nginx ${fromNginx.status}`);
      const [s, n] = await interleaved(
        [
          { label: 'server', url: `${server.url}${t.path}`, pids: [server.process.pid!] },
          { label: 'nginx', url: `${nginx.url}${t.path}`, pids: nginx.pids },
        ],
        load,
      );
      rows.push(comparisonRow(`${t.label}: \`${t.path}\``, s!, n!, bytes));
      const value = s!.rps / n!.rps;
      const bound =
        n!.cpuShare < 0.85
          ? ` (nginx used ${fixed(n!.cpuShare * 100)} % of a core: the load generator, not nginx, set its pace)`
          : '';
      findings.push(
        `\`${t.path}\`: ${ratio(value)} of nginx, goal ${ratio(goal)}: ${value >= goal ? 'met' : `not met, ${ratio(goal - value)} short`}${bound}.`,
      );
      console.log(
        `[bench] ${t.path}: ${fixed(s!.rps)} vs nginx ${fixed(n!.rps)} req/s, ${fixed(s!.cpuUs)} vs ${fixed(n!.cpuUs)} µs CPU per request`,
      );
    }
  } finally {
    await nginx.stop();
  }
  return {
    title,
    about: `The built files (\`dist/site\`) served by nginx ${nginxVersion(binary)} (Debian) with one worker process, sendfile, an open-file cache and no access log, adding the same security headers and cache policy as \`server.ts\`; clean URLs through \`try_files\`. Against \`server.ts\` as \`npm start\` runs it, the same load from many client addresses. Uncompressed (the client sends only \`Host\`). Throughput ratio = server throughput / nginx throughput (the goal of this section); CPU = each server's own CPU time per request (nginx: master and worker), CPU ratio = the median of the rounds' own ratios, server / nginx.`,
    header,
    rows,
    findings,
  };
}
