import { errorResponses } from '../errors.ts';
import { signedIn, type ApiRoute } from './api-route.ts';
import {
  AutomatedRecognitionResult,
  EntitiesQuery,
  EntityExtractionResult,
  NlpTextBody,
  NormaliseBody,
  NormaliseResponse,
} from '../nlp.ts';

/** The `/internal` routes of the nlp area. */
export const NLP_ROUTES = [
  {
    method: 'POST',
    path: '/internal/nlp/entities',
    access: signedIn,
    area: 'nlp',
    patientData: 'none',
    spec: '1 §7, 2 §7',
    query: EntitiesQuery,
    body: NlpTextBody,
    // 406: an Accept header asking for another version. 503: entity recognition of a large
    // knowledge base failed to build (issue 22).
    response: { 200: AutomatedRecognitionResult, ...errorResponses([406, 503]) },
  },
  {
    method: 'POST',
    path: '/internal/nlp/normalise',
    access: signedIn,
    area: 'nlp',
    patientData: 'none',
    spec: '1 §7, 2 §7',
    body: NormaliseBody,
    // 406: an Accept header asking for another version. 503: concept search or entity
    // recognition of a large knowledge base failed to build (issue 22).
    response: { 200: NormaliseResponse, ...errorResponses([406, 503]) },
  },
  {
    method: 'POST',
    path: '/internal/nlp/evaluate',
    access: signedIn,
    area: 'nlp',
    patientData: 'none',
    spec: '1 §7, 3 §7',
    body: NlpTextBody,
    // 406: an Accept header asking for another version. 503: entity recognition of a large
    // knowledge base failed to build (issue 22).
    response: { 200: EntityExtractionResult, ...errorResponses([406, 503]) },
  },
] as const satisfies readonly ApiRoute[];
