import { any, signedIn, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the intelligence area. */
export const INTELLIGENCE_ROUTES = [
  {
    method: 'GET',
    path: '/internal/utilities/typeahead',
    access: signedIn,
    area: 'intelligence',
    spec: '1 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/concepts/_classes',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/intelligence/ontology/concepts/_search',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/models/relationships',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/models/:modelName',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/ontology/models/:model/:id/_subgraph',
    access: any('graph:inspect:all'),
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/ontology/_count',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/ontology',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/conditions',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'GET',
    path: '/internal/intelligence/clinical_inference/observations',
    access: signedIn,
    area: 'intelligence',
    spec: '3 §7',
  },
  {
    method: 'POST',
    path: '/internal/intelligence/clinical_inference/differential_diagnosis',
    access: any('test:differentialdiagnosis:perform', 'patient:conversations:read'),
    area: 'intelligence',
    spec: '3 §7',
  },
] as const satisfies readonly ApiRoute[];
