import type { APIRequestContext } from '@playwright/test';

/** The API key the end-to-end server knows (passed as DEMO_API_KEY by global-setup). */
export const E2E_API_KEY = 'ldk_e2e00001_end-to-end-tests-play-the-assistant-here';

interface FeedEvent {
  type: string;
  jobId: string;
  data: { job: { id: string; state: string; result: unknown } };
}

/** The assistant's side of the integration API, as a real upstream system would use it. */
export function assistant(request: APIRequestContext) {
  const headers = { authorization: `Bearer ${E2E_API_KEY}` };
  return {
    async createJob(
      body: Record<string, unknown>,
      idempotencyKey: string,
    ): Promise<{ id: string }> {
      const response = await request.post('/api/v1/jobs', {
        headers: { ...headers, 'idempotency-key': idempotencyKey },
        data: body,
      });
      if (!response.ok()) {
        throw new Error(`create job: ${response.status()} ${await response.text()}`);
      }
      return (await response.json()) as { id: string };
    },
    /** Cancels a job, so that it leaves the queue for the tests that follow. */
    async cancelJob(id: string): Promise<void> {
      const response = await request.post(`/api/v1/jobs/${id}/cancel`, { headers });
      if (!response.ok() && response.status() !== 409) {
        throw new Error(`cancel job: ${response.status()} ${await response.text()}`);
      }
    },
    /** Every event of the feed, from the start. */
    async events(): Promise<FeedEvent[]> {
      const response = await request.get('/api/v1/events?limit=500', { headers });
      return ((await response.json()) as { events: FeedEvent[] }).events;
    },
  };
}
