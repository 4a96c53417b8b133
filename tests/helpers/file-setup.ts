/** Before each test file, in its process: what the run's setup made for it (tests/helpers/global-setup.ts). */
import { inject } from 'vitest';
import { useEmbeddedTemplate } from './embedded-template.ts';

useEmbeddedTemplate(inject('embeddedTemplate'));
