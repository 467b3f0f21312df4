import { signedIn, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the nlp area. */
export const NLP_ROUTES = [
  {
    method: 'POST',
    path: '/internal/nlp/entities',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 2 §7',
  },
  {
    method: 'POST',
    path: '/internal/nlp/normalise',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 2 §7',
  },
  {
    method: 'POST',
    path: '/internal/nlp/evaluate',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 3 §7',
  },
] as const satisfies readonly ApiRoute[];
