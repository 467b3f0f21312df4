import { z } from 'zod';

/**
 * The analytics dashboard (spec 3 §2 "Analytics dashboard", §3 "Dashboard response", §7): a
 * full-size embedded page whose address the server gives.
 */

/** Dashboard response (spec 3 §3), the answer of `GET /internal/analytics/dashboard`: `{url}`. */
export const DashboardResponse = z.object({
  url: z.string().min(1).describe('the address of the page to embed'),
});
export type DashboardResponse = z.infer<typeof DashboardResponse>;

/**
 * The built-in analytics page (issue 16): the frame at `/analytics/embed?token=…` opens with the
 * signed address, then reads its figures with the view token it got. Counts and times only: never
 * message text, never a note's text.
 */

/** The header that carries the page's view token (never the address: it stays out of logs). */
export const ANALYTICS_VIEW_HEADER = 'x-analytics-view';

/** `GET /internal/analytics/embed/_open?token=…`: the signed address checked, a view token given. */
export const EmbedOpenQuery = z.object({ token: z.string().min(1).max(2000) });
export const EmbedOpenResponse = z.object({
  viewToken: z.string(),
  expiresAt: z.iso.datetime(),
  /** Whether the per-technician figures are shown (privilege analytics:people:view). */
  people: z.boolean(),
});
export type EmbedOpenResponse = z.infer<typeof EmbedOpenResponse>;

/** The longest date range one view may ask for. */
export const MAX_RANGE_DAYS = 366;

const isoDate = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' });

/** The figures' filters: a date range (required), and optionally one job type, queue and tenant. */
export const AnalyticsFilters = z
  .object({
    from: isoDate,
    to: isoDate,
    type: z.string().min(1).max(200).optional(),
    queue: z.string().min(1).max(100).optional(),
    tenant: z.string().min(1).max(200).optional(),
  })
  .superRefine((value, context) => {
    const from = Date.parse(value.from);
    const to = Date.parse(value.to);
    if (!(from < to)) {
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: `must be after from (${value.from}): the range ${value.from} to ${value.to} is empty`,
      });
    } else if (to - from > MAX_RANGE_DAYS * 86_400_000) {
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: `the range may span at most ${MAX_RANGE_DAYS} days`,
      });
    }
  });
export type AnalyticsFilters = z.infer<typeof AnalyticsFilters>;

/** p50/p90/p99 of a duration in seconds (null without any sample), and the number of samples. */
const Percentiles = z.object({
  count: z.number().int(),
  p50: z.number().nullable(),
  p90: z.number().nullable(),
  p99: z.number().nullable(),
});
export type Percentiles = z.infer<typeof Percentiles>;

/** Agreement of a set of sampled jobs' answer pairs. */
const AgreementScores = z.object({
  /** Answered samples (pairs of answers). */
  samples: z.number().int(),
  /** Span-level F1 over the pairs (2 × matched ÷ (first + second spans)); null without spans. */
  f1: z.number().nullable(),
  /** Span boundaries compared for kappa (marked by either technician). */
  items: z.number().int(),
  /** Cohen's kappa on the categories of those spans; null when undefined (no items, pₑ = 1). */
  kappa: z.number().nullable(),
});
export type AgreementScores = z.infer<typeof AgreementScores>;

export const AnalyticsFigures = z.object({
  filters: z.object({
    from: z.string(),
    to: z.string(),
    type: z.string().nullable(),
    queue: z.string().nullable(),
    tenant: z.string().nullable(),
  }),
  /** What the filters may choose from (every value seen in the history). */
  options: z.object({
    types: z.array(z.string()),
    queues: z.array(z.string()),
    tenants: z.array(z.string()),
  }),
  /** When the rollups were last brought up to date. */
  refreshedAt: z.string().nullable(),
  queues: z.object({
    /** Open jobs (created, not yet completed, cancelled or dead) at the end of each hour. */
    depth: z.array(z.object({ hour: z.string(), queue: z.string(), open: z.number().int() })),
    /** Jobs created and jobs completed in each hour. */
    hourly: z.array(
      z.object({
        hour: z.string(),
        arrivals: z.number().int(),
        completions: z.number().int(),
      }),
    ),
    /** Now: the oldest job waiting in each queue (seconds it has waited), whatever the range. */
    oldest: z.array(
      z.object({
        queue: z.string(),
        waiting: z.number().int(),
        oldestQueuedAt: z.string(),
        ageSeconds: z.number(),
      }),
    ),
  }),
  /** Per job type: wait (created → first delivered), handle (delivered → answered), end to end. */
  times: z.array(
    z.object({ type: z.string(), wait: Percentiles, handle: Percentiles, total: Percentiles }),
  ),
  desk: z.object({
    handovers: z.number().int(),
    /** Handover → first reply of a human. */
    firstReply: Percentiles,
    /** First allocation to a reviewer → handback or end. */
    withHuman: Percentiles,
    handbacks: z.number().int(),
    ends: z.number().int(),
    open: z.number().int(),
  }),
  outcomes: z.array(
    z.object({
      type: z.string(),
      completed: z.number().int(),
      exceptions: z.number().int(),
      cancelled: z.number().int(),
      dead: z.number().int(),
      requeues: z.number().int(),
    }),
  ),
  /** Async tasks discarded, per pipeline step, and how many carried a note (its text never). */
  discards: z.array(
    z.object({ type: z.string(), discards: z.number().int(), withNotes: z.number().int() }),
  ),
  /** Per technician; null without the privilege analytics:people:view. */
  people: z
    .array(
      z.object({
        userId: z.string(),
        name: z.string(),
        jobs: z.number().int(),
        activeHours: z.number().int(),
        jobsPerHour: z.number(),
        handle: Percentiles,
        exceptions: z.number().int(),
        exceptionRate: z.number(),
      }),
    )
    .nullable(),
  /**
   * Agreement between two technicians on the sampled federated jobs (docs/analytics.md):
   * span-level F1 (micro) and Cohen's kappa on categories, null when undefined. Counts, ids and
   * categories only, never message text.
   */
  agreement: z.object({
    byType: z.array(AgreementScores.extend({ type: z.string() })),
    /** Per technician pair; null without the privilege analytics:people:view. */
    byPair: z
      .array(
        AgreementScores.extend({
          first: z.object({ userId: z.string(), name: z.string() }),
          second: z.object({ userId: z.string(), name: z.string() }),
        }),
      )
      .nullable(),
    /** The samples whose two answers differ, newest first (at most 100): ids and counts. */
    disagreements: z.array(
      z.object({
        jobId: z.string(),
        sampleJobId: z.string(),
        type: z.string(),
        tenant: z.string(),
        answeredAt: z.string(),
        firstSpans: z.number().int(),
        secondSpans: z.number().int(),
        matchedSpans: z.number().int(),
        categoryDisagreements: z.number().int(),
        outcomeDiffers: z.boolean(),
      }),
    ),
  }),
});
export type AnalyticsFigures = z.infer<typeof AnalyticsFigures>;
