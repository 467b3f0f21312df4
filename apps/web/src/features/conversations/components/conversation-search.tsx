import {
  Box,
  Button,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link as RouterLink } from 'react-router';
import type {
  ConversationSearchQuery,
  ConversationStatusFilter,
} from '@loopdesk/contracts/conversation-insights.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { searchQueryOptions } from '../api/conversation-queries.ts';
import { viewerPath } from '../utils/messages.ts';

const STATUS_LABELS: Record<ConversationStatusFilter, string> = {
  open: 'Open (with the assistant)',
  human: 'With a human',
  ended: 'Ended',
};

interface Fields {
  name: string;
  id: string;
  from: string;
  to: string;
  finding: string;
  status: '' | ConversationStatusFilter;
}

const EMPTY: Fields = { name: '', id: '', from: '', to: '', finding: '', status: '' };

/** The search's query from the form: empty fields are left out. */
function queryOf(fields: Fields, page: number): Partial<ConversationSearchQuery> {
  const query: Partial<ConversationSearchQuery> = { p: page };
  for (const key of ['name', 'id', 'from', 'to', 'finding'] as const) {
    const value = fields[key].trim();
    if (value) {
      query[key] = value;
    }
  }
  if (fields.status) {
    query.status = fields.status;
  }
  return query;
}

/** Finding conversations beyond the dropdown (issue 14): by patient, id, dates, finding, status. */
export function ConversationSearch() {
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [query, setQuery] = useState<Partial<ConversationSearchQuery> | null>(null);
  const result = useQuery(searchQueryOptions(query));
  const set = (key: keyof Fields) => (event: { target: { value: string } }) =>
    setFields((f) => ({ ...f, [key]: event.target.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setQuery(queryOf(fields, 0));
  };
  const page = query?.p ?? 0;
  return (
    <Box component="section" aria-labelledby="search-heading">
      <Typography variant="h6" component="h2" id="search-heading" gutterBottom>
        Search conversations
      </Typography>
      <Stack
        sx={{ flexWrap: 'wrap', gap: 1 }}
        component="form"
        role="search"
        aria-label="Conversations"
        onSubmit={submit}
        direction="row"
      >
        <TextField size="small" label="Patient name" value={fields.name} onChange={set('name')} />
        <TextField size="small" label="Conversation id" value={fields.id} onChange={set('id')} />
        <TextField
          size="small"
          label="Started from"
          type="date"
          value={fields.from}
          onChange={set('from')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          label="Started to"
          type="date"
          value={fields.to}
          onChange={set('to')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          size="small"
          label="Finding or condition"
          value={fields.finding}
          onChange={set('finding')}
        />
        <TextField
          size="small"
          select
          label="Status"
          value={fields.status}
          onChange={set('status')}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="">Any</MenuItem>
          {(Object.keys(STATUS_LABELS) as ConversationStatusFilter[]).map((s) => (
            <MenuItem key={s} value={s}>
              {STATUS_LABELS[s]}
            </MenuItem>
          ))}
        </TextField>
        <Button type="submit" variant="contained">
          Search
        </Button>
      </Stack>
      {result.isError && (
        <Typography role="alert" color="error" sx={{ mt: 1 }}>
          {errorMessage(result.error)}
        </Typography>
      )}
      {result.data && (
        <>
          <Table size="small" aria-label="Conversations found" sx={{ mt: 2 }}>
            <TableHead>
              <TableRow>
                <TableCell>Patient</TableCell>
                <TableCell>Started</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Messages</TableCell>
                <TableCell>Conversation</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {result.data.items.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5}>No conversation matches.</TableCell>
                </TableRow>
              )}
              {result.data.items.map((item) => (
                <TableRow key={item.conversationId}>
                  <TableCell>{item.patient.name}</TableCell>
                  <TableCell>{new Date(item.createdOn).toLocaleString()}</TableCell>
                  <TableCell>{STATUS_LABELS[item.status]}</TableCell>
                  <TableCell>{item.messages}</TableCell>
                  <TableCell>
                    <Button
                      component={RouterLink}
                      to={viewerPath(item.conversationId, item.tenant)}
                      size="small"
                      aria-label={`Open the conversation with ${item.patient.name}`}
                    >
                      Open
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
            <Button disabled={page === 0} onClick={() => setQuery((q) => ({ ...q, p: page - 1 }))}>
              Previous page
            </Button>
            <Typography variant="body2">Page {page + 1}</Typography>
            <Button
              disabled={!result.data.page.hasMore}
              onClick={() => setQuery((q) => ({ ...q, p: page + 1 }))}
            >
              Next page
            </Button>
          </Stack>
        </>
      )}
    </Box>
  );
}
