import { QueryClient } from '@tanstack/react-query';
import { HttpError } from './http-error.ts';

/** The portal's query client: a 4xx is an answer, not a hiccup, so it is never retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(error instanceof HttpError && error.status < 500) && failureCount < 2,
      },
      mutations: { retry: false },
    },
  });
}
