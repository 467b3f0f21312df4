import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { AnalyticsFigures, AnalyticsFilters } from '@loopdesk/contracts/analytics.ts';
import { useState } from 'react';

/** `YYYY-MM-DDTHH:mm` in local time, as a datetime-local input shows it. */
function localInput(iso: string): string {
  const date = new Date(iso);
  const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 16);
}

const fromLocal = (value: string): string | null => {
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
};

const ALL = '';

interface FiltersBarProps {
  readonly filters: AnalyticsFilters;
  readonly options: AnalyticsFigures['options'] | undefined;
  readonly onChange: (filters: AnalyticsFilters) => void;
  readonly onRefresh: () => void;
}

/** Date range, job type, queue and tenant; every change reads the figures again. */
export function FiltersBar({ filters, options, onChange, onRefresh }: FiltersBarProps) {
  const [from, setFrom] = useState(localInput(filters.from));
  const [to, setTo] = useState(localInput(filters.to));
  const choose = (field: 'type' | 'queue' | 'tenant', value: string) => {
    const next: AnalyticsFilters = { ...filters };
    if (value === ALL) {
      delete next[field];
    } else {
      next[field] = value;
    }
    onChange(next);
  };
  const applyRange = (nextFrom: string, nextTo: string) => {
    const a = fromLocal(nextFrom);
    const b = fromLocal(nextTo);
    if (a && b) {
      onChange({ ...filters, from: a, to: b });
    }
  };
  const select = (field: 'type' | 'queue' | 'tenant', label: string, values: readonly string[]) => (
    <TextField
      select
      size="small"
      label={label}
      value={filters[field] ?? ALL}
      onChange={(event) => choose(field, event.target.value)}
      sx={{ minWidth: 180 }}
    >
      <MenuItem value={ALL}>All</MenuItem>
      {values.map((value) => (
        <MenuItem key={value} value={value}>
          {value}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 2, alignItems: 'center' }}>
      <TextField
        size="small"
        type="datetime-local"
        label="From"
        value={from}
        onChange={(event) => {
          setFrom(event.target.value);
          applyRange(event.target.value, to);
        }}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        size="small"
        type="datetime-local"
        label="To"
        value={to}
        onChange={(event) => {
          setTo(event.target.value);
          applyRange(from, event.target.value);
        }}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      {select('type', 'Job type', options?.types ?? [])}
      {select('queue', 'Queue', options?.queues ?? [])}
      {select('tenant', 'Tenant', options?.tenants ?? [])}
      <Button variant="outlined" onClick={onRefresh}>
        Refresh
      </Button>
    </Stack>
  );
}
