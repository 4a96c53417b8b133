/**
 * peak-data/CHANGELOG.md: the dataset's releases in the Keep a Changelog 1.1.0 form, newest
 * first, from the changelog in content/settings/site.yaml (whose newest release the settings
 * schema holds to the dataset's version and date).
 */
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { changeKinds } from '../../domain/schemas/site.ts';

const heading = (kind: string) => kind[0]!.toUpperCase() + kind.slice(1);

export function peakChangelogMarkdown(catalogue: Catalogue): string {
  const { dataset } = catalogue.site;
  const lines = [
    '# Changelog',
    '',
    `All notable changes to the ${dataset.name} (${catalogue.datasetUrl}) are recorded in this file.`,
    '',
    'The format is based on [Keep a Changelog](https://keepachangelog.com/en/1.1.0/), and the dataset',
    'follows [Semantic Versioning](https://semver.org/spec/v2.0.0.html): a new field or a corrected fact',
    'is a minor version, a removed or renamed field a major one.',
    '',
  ];
  for (const release of dataset.changelog) {
    lines.push(`## [${release.version}] - ${release.date}`, '');
    for (const kind of changeKinds) {
      const changes = release[kind];
      if (!changes?.length) continue;
      lines.push(`### ${heading(kind)}`, '', ...changes.map((change) => `- ${change}`), '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
