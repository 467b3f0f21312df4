import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { AnalyticsFilters } from '@loopdesk/contracts/analytics.ts';
import { useState, type ReactNode } from 'react';
import { errorMessage } from '../../../lib/http-error.ts';
import { useFigures, useOpenEmbed } from '../api/embed-api.ts';
import { AgreementSection } from './agreement-section.tsx';
import { DeskSection, OutcomesSection } from './desk-outcomes-section.tsx';
import { FiltersBar } from './filters-bar.tsx';
import { PeopleSection } from './people-section.tsx';
import { QueuesSection } from './queues-section.tsx';
import { TimesSection } from './times-section.tsx';

/** The last 24 hours, to the next minute. */
export function defaultFilters(now = Date.now()): AnalyticsFilters {
  const to = Math.ceil(now / 60_000) * 60_000 + 60_000;
  return { from: new Date(to - 24 * 3_600_000).toISOString(), to: new Date(to).toISOString() };
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          gap: 2,
          gridTemplateColumns: 'repeat(auto-fill, minmax(420px, 1fr))',
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

/**
 * The built-in analytics page (issue 16 item 2), shown in the frame of `/`: queues, time per job
 * type, the exception desk, outcomes, agreement and (for leads) people and pairs; filters; CSV of every chart.
 */
export function AnalyticsPage({ token }: { token: string | null }) {
  const opened = useOpenEmbed(token);
  const [filters, setFilters] = useState<AnalyticsFilters>(() => defaultFilters());
  const figures = useFigures(opened.data?.viewToken, filters);

  if (opened.error) {
    return (
      <Alert severity="error" sx={{ m: 3 }}>
        {errorMessage(opened.error)}
      </Alert>
    );
  }
  const data = figures.data;
  return (
    <Box component="main" sx={{ p: 3 }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Analytics
      </Typography>
      <FiltersBar
        filters={filters}
        options={data?.options}
        onChange={setFilters}
        onRefresh={() => void figures.refetch()}
      />
      <Box sx={{ height: 4, mt: 1 }}>{figures.isFetching && data ? <LinearProgress /> : null}</Box>
      {figures.error ? (
        <Alert severity="error" sx={{ mt: 2 }}>
          {errorMessage(figures.error)}
        </Alert>
      ) : null}
      {data ? (
        <>
          <Typography variant="body2" color="text.secondary">
            Counts and times only, never message text. Figures brought up to date{' '}
            {data.refreshedAt ? new Date(data.refreshedAt).toLocaleString() : 'never'}.
          </Typography>
          <Group title="Queues">
            <QueuesSection figures={data} />
          </Group>
          <Group title="Time per job type">
            <TimesSection figures={data} />
          </Group>
          <Group title="Exception desk and outcomes">
            <DeskSection figures={data} />
            <OutcomesSection figures={data} />
          </Group>
          <Group title="Agreement">
            <AgreementSection figures={data} />
          </Group>
          {data.people ? (
            <Group title="People">
              <PeopleSection people={data.people} range={data.filters} />
            </Group>
          ) : null}
        </>
      ) : figures.error ? null : (
        <Stack sx={{ alignItems: 'center', mt: 6 }}>
          <CircularProgress aria-label="Loading analytics" />
        </Stack>
      )}
    </Box>
  );
}
