/**
 * peak-data/CITATION.cff: how to cite the dataset, in the Citation File Format 1.2.0
 * (https://citation-file-format.github.io/): title, version and release date from the dataset's
 * settings, the operator as the author (an entity), the licence and the dataset's address.
 * Written by js-yaml, which quotes the release date so it stays the string the format asks for.
 */
import { dump } from 'js-yaml';
import type { Catalogue } from '../../domain/catalogue/index.ts';
import { canonicalOrigin } from '../../domain/catalogue/peak-data-files.ts';

const cffVersion = '1.2.0';

function peakCitation(catalogue: Catalogue) {
  const { dataset, operatorName, contactEmail } = catalogue.site;
  const canonical = canonicalOrigin(catalogue.site);
  return {
    'cff-version': cffVersion,
    message: `If you use this dataset, please cite it as below. CC-BY-4.0 asks for this credit and a link: ${catalogue.attribution}`,
    type: 'dataset',
    title: dataset.name,
    abstract: `An open dataset of ${catalogue.peaks.length} climbing peaks in the Indian Himalaya: altitude, Alpine grade, IMF royalty band and fee, open-peak status, best months, typical duration, summit coordinates where a source gives them, first ascent and the references of every fact.`,
    version: dataset.version,
    'date-released': dataset.lastUpdated,
    license: dataset.license,
    url: catalogue.datasetUrl,
    authors: [{ name: operatorName, website: `${canonical}/`, email: contactEmail }],
    keywords: ['Himalaya', 'India', 'mountaineering', 'peaks', 'open data'],
  };
}

export function peakCitationCff(catalogue: Catalogue): string {
  return `# Generated from the catalogue on every build; edit content/settings/site.yaml instead.\n${dump(peakCitation(catalogue), { lineWidth: -1 })}`;
}
