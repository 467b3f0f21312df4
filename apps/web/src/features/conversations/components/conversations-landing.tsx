import { Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/http-error.ts';
import {
  demoConversationsQueryOptions,
  recordsQueryOptions,
  relationshipsQueryOptions,
} from '../api/conversation-queries.ts';
import { useOntology } from '../hooks/use-ontology.ts';
import { viewerPath } from '../utils/messages.ts';
import { ConversationPicker } from './conversation-picker.tsx';
import { ConversationSearch } from './conversation-search.tsx';
import { LoadProgress, type LoadItem } from './load-progress.tsx';

const loadItem = (
  label: LoadItem['label'],
  query: { data?: { items: unknown[] } | undefined; isError: boolean; error: unknown },
): LoadItem => ({
  label,
  value: query.data ? 100 : 0,
  detail: query.isError
    ? `failed (${errorMessage(query.error)})`
    : query.data
      ? `${query.data.items.length} loaded`
      : 'loading…',
});

/** `/conversations` without a conversation: load progress, the dropdown and the search (spec 3 §2). */
export function ConversationsLanding() {
  const navigate = useNavigate();
  const conditions = useQuery(recordsQueryOptions('conditions'));
  const observations = useQuery(recordsQueryOptions('observations'));
  const relationships = useQuery(relationshipsQueryOptions());
  const ontology = useOntology();
  const conversations = useQuery(demoConversationsQueryOptions());
  const ontologyItem: LoadItem = {
    label: 'Ontology',
    value: ontology.total > 0 ? Math.round((ontology.held / ontology.total) * 100) : 0,
    detail: ontology.error
      ? `failed (${ontology.error})`
      : ontology.loaded
        ? `${ontology.held} loaded`
        : `${ontology.held} of ${ontology.total || '…'}`,
  };
  return (
    <Stack spacing={3} sx={{ p: 2 }}>
      <LoadProgress
        items={[
          loadItem('Conditions', conditions),
          loadItem('Observations', observations),
          loadItem('Relationships', relationships),
          ontologyItem,
        ]}
      />
      <Stack spacing={1}>
        <Typography variant="h6" component="h2">
          Open a conversation
        </Typography>
        {conversations.isError && (
          <Typography role="alert" color="error">
            {errorMessage(conversations.error)}
          </Typography>
        )}
        <ConversationPicker
          conversations={conversations.data?.items ?? []}
          ontologyLoaded={ontology.loaded}
          refreshing={conversations.isFetching}
          onRefresh={() => void conversations.refetch()}
          onOpen={(c) => void navigate(viewerPath(c.conversationId, c.tenant))}
        />
      </Stack>
      <ConversationSearch />
    </Stack>
  );
}
