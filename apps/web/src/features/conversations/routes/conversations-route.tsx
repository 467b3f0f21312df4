import { Alert, Box, Button } from '@mui/material';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { usePageTitle } from '../../../lib/page-title.ts';
import { ConversationViewer } from '../components/conversation-viewer.tsx';
import { ConversationsLanding } from '../components/conversations-landing.tsx';
import { SHORT_ID_MESSAGE, isLoadableId } from '../utils/messages.ts';

/**
 * `/conversations` (spec 3 §2): the landing page, or with `?id=&tenant=` the conversation viewer.
 * The address keeps the conversation, so a sign-in redirect comes back to it (spec 1 §2).
 */
export function ConversationsRoute() {
  usePageTitle('Conversations');
  const [params] = useSearchParams();
  const id = params.get('id');
  const tenant = params.get('tenant') ?? undefined;
  if (id === null) {
    return <ConversationsLanding />;
  }
  if (!isLoadableId(id)) {
    return (
      <Box sx={{ p: 2 }}>
        <Alert severity="error">{SHORT_ID_MESSAGE}</Alert>
        <Button component={RouterLink} to="/conversations" sx={{ mt: 1 }}>
          All conversations
        </Button>
      </Box>
    );
  }
  return <ConversationViewer key={id} id={id} tenant={tenant} />;
}
