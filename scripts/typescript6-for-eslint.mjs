// typescript-eslint reads types through TypeScript's JavaScript API, which TypeScript 7 (the
// project's `typescript`, whose tsc `npm run typecheck` runs and whose compiler `vercel build`
// uses) does not have yet. In the ESLint process only, `typescript` resolves to TypeScript 6
// (`@typescript/typescript6`, the same language with the API). eslint.config.js imports this
// first, before typescript-eslint loads. When typescript-eslint reads TypeScript 7, this goes.
import { registerHooks } from 'node:module';

const typescript6 = (specifier) =>
  specifier === 'typescript' || specifier.startsWith('typescript/')
    ? `@typescript/typescript6${specifier === 'typescript' ? '' : specifier.slice('typescript'.length)}`
    : specifier;

registerHooks({ resolve: (specifier, context, nextResolve) => nextResolve(typescript6(specifier), context) });
