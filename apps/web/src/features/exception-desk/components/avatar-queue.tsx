import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import type { ExceptionConversation } from '@loopdesk/contracts/exceptions.ts';
import type { CSSProperties } from 'react';
import { initialsOf } from '../utils/desk-state.ts';

// Read by screen readers (and role queries), not shown: the avatar draws the name's initials.
const hidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

export interface AvatarQueueProps {
  conversations: readonly ExceptionConversation[];
  current: string | null;
  onSwitch: (conversationId: string) => void;
}

/**
 * The narrow queue of patient avatars (spec 2 §2): the badge is primary when the conversation is
 * unread and secondary when read; the current conversation is outlined; a click switches to it.
 */
export function AvatarQueue({ conversations, current, onSwitch }: AvatarQueueProps) {
  return (
    <Stack
      component="nav"
      aria-label="Conversations"
      sx={{ gap: 1.5, alignItems: 'center', py: 1, width: 72, flexShrink: 0 }}
    >
      {conversations.map((conversation) => {
        const name = `${conversation.name.given} ${conversation.name.family}`.trim();
        const selected = conversation.conversationId === current;
        return (
          // The button is named by its content, the name (WCAG 2.5.3: no aria-label that leaves
          // out the initials on screen); the tooltip repeats the name as a description.
          <Tooltip key={conversation.conversationId} title={name} placement="left" describeChild>
            <ButtonBase
              aria-current={selected ? 'true' : undefined}
              onClick={() => onSwitch(conversation.conversationId)}
              sx={{
                borderRadius: '50%',
                p: 0.5,
                outline: selected ? '2px solid' : 'none',
                outlineColor: 'primary.main',
              }}
            >
              <Badge
                variant="dot"
                overlap="circular"
                color={conversation.read ? 'secondary' : 'primary'}
                data-testid={`badge-${conversation.read ? 'read' : 'unread'}`}
              >
                {/* A lighter grey than the dark theme's default keeps the initials at 4.5:1. */}
                <Avatar aria-hidden sx={{ width: 44, height: 44, bgcolor: 'grey.500' }}>
                  {initialsOf(conversation.name)}
                </Avatar>
              </Badge>
              <span style={hidden}>{`${name}${conversation.read ? '' : ' (unread)'}`}</span>
            </ButtonBase>
          </Tooltip>
        );
      })}
    </Stack>
  );
}
