/**
 * peak-data/CHANGELOG.md: the dataset's releases in the Keep a Changelog 1.1.0 form, newest
 * first, from the changelog in content/settings/site.yaml (whose newest release the settings
 * schema holds to the dataset's version and date). Each release links its files at their
 * versioned addresses (/peak-data/<version>/<file>), and its heading links its peaks.json.
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { canonicalOrigin } from '../../domain/catalogue/peak-data-files.ts';
import type { DatasetRelease } from '../../domain/catalogue/releases.ts';
import { changeKinds } from '../../domain/schemas/site.ts';

const heading = (kind: string) => kind[0]!.toUpperCase() + kind.slice(1);

export function peakChangelogMarkdown(catalogue: Catalogue, releases: readonly DatasetRelease[]): string {
  const { dataset } = catalogue.site;
  const canonical = canonicalOrigin(catalogue.site);
  const filesOf = (version: string) => releases.find((r) => r.version === version)?.files ?? [];
  const lines = [
    '# Changelog',
    '',
    `All notable changes to the ${dataset.name} (${catalogue.datasetUrl}) are recorded in this file.`,
    '',
    'The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/), and the dataset',
    'follows [Semantic Versioning](https://semver.org/spec/v2.0.0.html): a new field or a corrected fact',
    'is a minor version, a removed or renamed field a major one. Every release stays downloadable at',
    `its own address, ${canonical}/peak-data/<version>/<file>.`,
    '',
  ];
  for (const release of dataset.changelog) {
    lines.push(`## [${release.version}] - ${release.date}`, '');
    const files = filesOf(release.version);
    if (files.length)
      lines.push(`Files: ${files.map((file) => `[${file.name}](${canonical}${file.path})`).join(', ')}.`, '');
    for (const kind of changeKinds) {
      const changes = release[kind];
      if (!changes?.length) continue;
      lines.push(`### ${heading(kind)}`, '', ...changes.map((change) => `- ${change}`), '');
    }
  }
  const links = dataset.changelog.flatMap((release) => {
    const json = filesOf(release.version).find((file) => file.name === 'peaks.json');
    return json ? [`[${release.version}]: ${canonical}${json.path}`] : [];
  });
  if (links.length) lines.push(...links, '');
  return `${lines.join('\n').trimEnd()}\n`;
}
