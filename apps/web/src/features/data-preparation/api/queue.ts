import { useQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DATA_PREPARATION_LISTS,
  type DataPreparationJob,
  type DataPreparationStatus,
  type SaveDataPreparationJob,
} from '@loopdesk/contracts/data-preparation.ts';
import { callRoute } from '../../../lib/api-client.ts';
import { storePreparedText } from './files.ts';

/** Spec 2 §9 "Data preparation queue poll every 5 s". */
export const QUEUE_POLL_MS = 5000;

const KEY = ['data-preparation'] as const;

/** The queue count: how many jobs are REGISTERED (`_size?status=REGISTERED`), polled. */
export function useRegisteredCount() {
  return useQuery({
    queryKey: [...KEY, 'size'],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/data-preparation/metadata/_size', {
        query: { status: 'REGISTERED' },
        signal,
      }),
    refetchInterval: QUEUE_POLL_MS,
  });
}

/** One work-stage list (spec 2 §4 "Lists"). */
export function useStageList(stage: keyof typeof DATA_PREPARATION_LISTS) {
  const statuses: readonly DataPreparationStatus[] = DATA_PREPARATION_LISTS[stage];
  return useQuery({
    queryKey: [...KEY, 'list', stage],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/data-preparation/metadata/summary', {
        query: { status: statuses.join(',') },
        signal,
      }),
  });
}

/** One job, by its key. */
export function useJob(id: string) {
  return useQuery({
    queryKey: [...KEY, 'job', id],
    queryFn: ({ signal }) =>
      callRoute('GET', '/internal/data-preparation/metadata/:id', { params: { id }, signal }),
    // The form holds the user's edits: no refetch behind their back.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** 'Get next job': the oldest registered job, leased to the caller (null when none is free). */
export const takeNextJob = () => callRoute('GET', '/internal/data-preparation/metadata/_next');

/** Saves a job, after storing its prepared text as `{code}.prepared[.approved].txt` (spec 2 §9). */
export function useSaveJob() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ job, fileName }: { job: SaveDataPreparationJob; fileName?: string }) => {
      if (fileName) {
        await storePreparedText(fileName, job.preparedText ?? '');
      }
      return callRoute('POST', '/internal/data-preparation/metadata', { body: job });
    },
    onSettled: () => client.invalidateQueries({ queryKey: KEY }),
  });
}

export type { DataPreparationJob };
