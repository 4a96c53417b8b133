/**
 * The Vercel target builds, holds the Astro function, and routes every request through the
 * request rules before the filesystem phase (static files).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, copyProject, type ProjectCopy } from '../helpers/project.ts';
import { realContent } from '../helpers/content.ts';

let copy: ProjectCopy;
let build: { status: number; output: string };
beforeAll(() => {
  copy = copyProject({ content: realContent });
  build = buildProject(copy.dir, { DEPLOY_TARGET: 'vercel', SITE_URL: 'https://example.test' });
});
afterAll(() => copy?.remove());

describe('DEPLOY_TARGET=vercel build', () => {
  it('succeeds', () => {
    expect(build.status, build.output).toBe(0);
  });

  it('puts the request rules ahead of the filesystem phase', () => {
    const config = JSON.parse(readFileSync(path.join(copy.dir, '.vercel/output/config.json'), 'utf8'));
    const rules = config.routes.findIndex((r: { middlewarePath?: string }) => r.middlewarePath === '_request-rules');
    const filesystem = config.routes.findIndex((r: { handle?: string }) => r.handle === 'filesystem');
    expect(rules).toBeGreaterThanOrEqual(0);
    expect(rules).toBeLessThan(filesystem);
    const vc = JSON.parse(readFileSync(path.join(copy.dir, '.vercel/output/functions/_request-rules.func/.vc-config.json'), 'utf8'));
    expect(vc).toEqual({ runtime: 'edge', entrypoint: 'index.js' });
    const bundle = readFileSync(path.join(copy.dir, '.vercel/output/functions/_request-rules.func/index.js'), 'utf8');
    expect(bundle).not.toMatch(/from ?["']node:/);
  });

  it('gives extension-less published files their media type before the filesystem phase', () => {
    const config = JSON.parse(readFileSync(path.join(copy.dir, '.vercel/output/config.json'), 'utf8'));
    const filesystem = config.routes.findIndex((r: { handle?: string }) => r.handle === 'filesystem');
    const catalog = config.routes.findIndex((r: { src?: string }) => r.src === '^/\\.well-known/api-catalog$');
    expect(catalog).toBeGreaterThan(0);
    expect(catalog).toBeLessThan(filesystem);
    expect(config.routes[catalog].headers['Content-Type']).toContain('application/linkset+json');
  });

  it('answers missing Markdown paths with the Markdown recovery note before the HTML 404', () => {
    const config = JSON.parse(readFileSync(path.join(copy.dir, '.vercel/output/config.json'), 'utf8'));
    const markdown = config.routes.findIndex((r: { dest?: string }) => r.dest === '/404.md');
    const html = config.routes.findIndex((r: { dest?: string }) => r.dest === '/404.html');
    expect(config.routes[markdown]).toEqual({ src: '^/.*\\.md$', dest: '/404.md', status: 404 });
    expect(markdown).toBeLessThan(html);
    expect(markdown).toBeGreaterThan(config.routes.findIndex((r: { handle?: string }) => r.handle === 'filesystem'));
  });

  it('holds the Astro function on Node 24 and the prerendered pages', () => {
    const func = path.join(copy.dir, '.vercel/output/functions/_render.func/.vc-config.json');
    expect(existsSync(func)).toBe(true);
    expect(JSON.parse(readFileSync(func, 'utf8')).runtime).toBe('nodejs24.x');
    expect(existsSync(path.join(copy.dir, '.vercel/output/static/index.html'))).toBe(true);
    expect(existsSync(path.join(copy.dir, '.vercel/output/static/404.md'))).toBe(true);
  });
});
