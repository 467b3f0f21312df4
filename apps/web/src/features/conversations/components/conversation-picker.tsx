import { Autocomplete, Button, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import type { ConversationObject } from '@loopdesk/contracts/conversation-insights.ts';
import { SHORT_ID_MESSAGE, isLoadableId } from '../utils/messages.ts';

/**
 * The conversation dropdown with Refresh and Open (spec 3 §2): Open is disabled until the
 * ontology is loaded and conversations exist; an id of 3 characters or fewer is refused.
 */
export function ConversationPicker(props: {
  conversations: readonly ConversationObject[];
  ontologyLoaded: boolean;
  refreshing: boolean;
  onRefresh: () => void;
  onOpen: (conversation: ConversationObject) => void;
}) {
  const { conversations } = props;
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const canOpen = props.ontologyLoaded && conversations.length > 0;
  const open = () => {
    const id = text.trim();
    if (!isLoadableId(id)) {
      setError(SHORT_ID_MESSAGE);
      return;
    }
    const known = conversations.find((c) => c.conversationId === id);
    props.onOpen(known ?? { conversationId: id, tenant: conversations[0]?.tenant ?? '' });
  };
  return (
    <Stack direction="row" spacing={1} sx={{ maxWidth: 720, alignItems: 'flex-start' }}>
      <Autocomplete
        freeSolo
        sx={{ flex: 1 }}
        options={conversations.map((c) => c.conversationId)}
        getOptionLabel={(id) => {
          const c = conversations.find((item) => item.conversationId === id);
          return c ? `${c.conversationId} (${c.tenant})` : id;
        }}
        inputValue={text}
        onInputChange={(_event, value, reason) => {
          setText(reason === 'selectOption' ? value.replace(/ \([^)]*\)$/, '') : value);
          setError(null);
        }}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Conversation"
            error={error !== null}
            helperText={error ?? ' '}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && canOpen) {
                open();
              }
            }}
          />
        )}
      />
      <Button
        variant="outlined"
        onClick={props.onRefresh}
        disabled={props.refreshing}
        sx={{ mt: 1 }}
      >
        Refresh
      </Button>
      <Button variant="contained" onClick={open} disabled={!canOpen} sx={{ mt: 1 }}>
        Open
      </Button>
    </Stack>
  );
}
