import { signedIn, type ApiRoute } from './api-route.ts';
import {
  AutomatedRecognitionResult,
  EntitiesQuery,
  EntityExtractionResult,
  NlpTextBody,
  NormaliseBody,
  NormaliseResponse,
} from '../intelligence.ts';

/** The `/internal` routes of the nlp area. */
export const NLP_ROUTES = [
  {
    method: 'POST',
    path: '/internal/nlp/entities',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 2 §7',
    query: EntitiesQuery,
    body: NlpTextBody,
    response: { 200: AutomatedRecognitionResult },
  },
  {
    method: 'POST',
    path: '/internal/nlp/normalise',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 2 §7',
    body: NormaliseBody,
    response: { 200: NormaliseResponse },
  },
  {
    method: 'POST',
    path: '/internal/nlp/evaluate',
    access: signedIn,
    area: 'nlp',
    spec: '1 §7, 3 §7',
    body: NlpTextBody,
    response: { 200: EntityExtractionResult },
  },
] as const satisfies readonly ApiRoute[];
