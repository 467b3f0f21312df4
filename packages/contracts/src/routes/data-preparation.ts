import { any, type ApiRoute } from './api-route.ts';

/** The `/internal` routes of the data-preparation area. */
export const DATA_PREPARATION_ROUTES = [
  {
    method: 'GET',
    path: '/internal/data-preparation/metadata/_size',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/metadata/summary',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/metadata/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'POST',
    path: '/internal/data-preparation/metadata',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/document/text/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/document/pdf/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'POST',
    path: '/internal/data-preparation/document/:name',
    access: any('jobs:preparation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/reference/:id',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
  {
    method: 'GET',
    path: '/internal/data-preparation/query/:view',
    access: any('jobs:preparation:perform', 'jobs:annotation:perform'),
    area: 'data-preparation',
    spec: '2 §7',
  },
] as const satisfies readonly ApiRoute[];
