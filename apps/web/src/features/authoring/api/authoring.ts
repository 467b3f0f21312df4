import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type RefObject } from 'react';
import { NLP_CONTENT_TYPE } from '@loopdesk/contracts/nlp.ts';
import {
  AuthoringConflict,
  type AuthoringHolder,
  type AuthoringJob,
  type AnnotationSetInput,
  type ReviewAnnotationsBody,
} from '@loopdesk/contracts/routes/authoring.ts';
import { callRoute } from '../../../lib/api-client.ts';
import { HttpError } from '../../../lib/http-error.ts';

const KEY = ['authoring'] as const;

/** The 'Authoring Tasks' table (`GET /internal/authoring/jobs`). */
export function useAuthoringJobs() {
  return useQuery({
    queryKey: [...KEY, 'list'],
    queryFn: ({ signal }) => callRoute('GET', '/internal/authoring/jobs', { signal }),
    retry: false,
  });
}

/** The query key of a taken job: the list takes it before opening, the screen reads it. */
export const takenJobKey = (id: string) => [...KEY, 'taken', id] as const;

/** Holds the job (to annotate or to review) and answers it as it is now. */
export const takeJob = (id: string) =>
  callRoute('POST', '/internal/authoring/jobs/:id/_take', { params: { id }, body: {} });

/** Lets go of a job without saving (leaving the screen). */
export const releaseJob = (id: string) =>
  callRoute('POST', '/internal/authoring/jobs/:id/_release', { params: { id }, body: {} });

/** The job the screen works on: taken once, never refetched behind the user's back. */
export function useTakenJob(id: string) {
  return useQuery({
    queryKey: takenJobKey(id),
    queryFn: () => takeJob(id),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** 'Apply automated named entity recognition' (spec 2 §7: the text, resolve 'true'). */
export const recogniseEntities = (text: string) =>
  callRoute('POST', '/internal/nlp/entities', {
    query: { resolve: 'true' },
    body: { text },
    headers: { Accept: NLP_CONTENT_TYPE },
  });

export function useSaveDraft(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { version: number; annotations: AnnotationSetInput }) =>
      callRoute('POST', '/internal/authoring/jobs/:id/draft', { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...KEY, 'list'] }),
  });
}

export function useSubmitAnnotations(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { version: number; annotations: AnnotationSetInput }) =>
      callRoute('POST', '/internal/authoring/jobs/:id/submit', { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...KEY, 'list'] }),
  });
}

export function useReview(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ReviewAnnotationsBody) =>
      callRoute('POST', '/internal/authoring/jobs/:id/review', { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...KEY, 'list'] }),
  });
}

/** A refused save: what the server said, and the job as it is now when the answer carried it. */
export interface Refusal {
  message: string;
  current: AuthoringJob | null;
  holder: AuthoringHolder | null;
}

/** A 409 (someone saved or holds the job since it was opened): what the server said. */
export function conflictOf(error: unknown): Refusal | null {
  if (error instanceof HttpError && error.status === 409) {
    const body = error.bodyAs(AuthoringConflict);
    return {
      message: body?.message ?? error.body?.message ?? error.message,
      current: body?.current ?? null,
      // Only a hold conflict names a holder: `current.holder` may be the user themselves.
      holder: body?.holder ?? null,
    };
  }
  return null;
}

export type { AuthoringJob };

/**
 * Leaving the screen without saving lets go of the job (a save releases it on the server). The
 * release waits a tick, so a remount of the same screen (React's strict mode) keeps the hold.
 */
export function useReleaseOnLeave(id: string, finished: RefObject<boolean>) {
  const mounted = useRef(false);
  useEffect(() => {
    mounted.current = true;
    // Read when the release runs, after the screen saved or not: that is the point.
    const saved = finished;
    return () => {
      mounted.current = false;
      setTimeout(() => {
        if (!mounted.current && !saved.current) {
          void releaseJob(id).catch(() => undefined);
        }
      }, 0);
    };
  }, [id, finished]);
}
