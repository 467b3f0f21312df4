import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ReportIcon from '@mui/icons-material/Report';
import type { ExceptionConversation } from '@loopdesk/contracts/exceptions.ts';
import type { CSSProperties } from 'react';
import { initialsOf } from '../utils/desk-state.ts';
import { useNow, waitingText } from '../utils/waiting.ts';

export interface AvatarQueueProps {
  conversations: readonly ExceptionConversation[];
  current: string | null;
  onSwitch: (conversationId: string) => void;
}

// Read by screen readers, not shown.
const hidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** The words of the rail's marks, shown once under it. */
export const RAIL_LEGEND = {
  unread: 'Unread: the patient wrote since you last looked',
  redFlag: 'Red flag: the patient wrote of a high-acuity symptom',
} as const;

function UnreadDot({ unread }: { unread: boolean }) {
  return (
    <Box
      component="span"
      aria-hidden
      sx={{
        display: 'inline-block',
        width: 10,
        height: 10,
        borderRadius: '50%',
        flexShrink: 0,
        bgcolor: unread ? 'primary.main' : 'transparent',
        border: 2,
        borderColor: unread ? 'primary.main' : 'text.disabled',
      }}
    />
  );
}

/**
 * The queue rail (spec 2 §2, issue 20): each conversation the reviewer holds, with the patient's
 * name, how long they have waited since the handover (live), why the assistant handed it over,
 * whether it is unread (the badge is primary when unread and secondary when read) and any red
 * flag; the current one is outlined; a click switches to it. A legend says what the marks mean.
 */
export function AvatarQueue({ conversations, current, onSwitch }: AvatarQueueProps) {
  const now = useNow();
  return (
    <Stack
      component="nav"
      aria-label="Conversations"
      sx={{ gap: 1, py: 0.5, width: 200, flexShrink: 0, minHeight: 0 }}
    >
      <Stack sx={{ gap: 1, overflow: 'auto', minHeight: 0, flex: 1, p: '3px' }}>
        {conversations.map((conversation) => {
          const name = `${conversation.name.given} ${conversation.name.family}`.trim();
          const selected = conversation.conversationId === current;
          const unread = !conversation.read;
          const flags = conversation.redFlags ?? [];
          return (
            // Named by its content, the patient's name (and "(unread)"); the reason, waiting time
            // and marks are its description, so the name a screen reader announces and the text
            // on screen agree (WCAG 2.5.3).
            <ButtonBase
              key={conversation.conversationId}
              aria-current={selected ? 'true' : undefined}
              aria-describedby={`rail-details-${conversation.conversationId}`}
              onClick={() => onSwitch(conversation.conversationId)}
              sx={{
                display: 'flex',
                alignItems: 'flex-start',
                justifyContent: 'flex-start',
                gap: 1,
                p: 1,
                width: '100%',
                textAlign: 'left',
                borderRadius: 1,
                border: 1,
                borderColor: flags.length > 0 ? 'error.main' : 'divider',
                outline: selected ? '2px solid' : 'none',
                outlineColor: 'primary.main',
                bgcolor: selected ? 'action.selected' : 'transparent',
              }}
            >
              <Badge
                variant="dot"
                overlap="circular"
                color={conversation.read ? 'secondary' : 'primary'}
                data-testid={`badge-${conversation.read ? 'read' : 'unread'}`}
              >
                {/* A lighter grey than the dark theme's default keeps the initials at 4.5:1. */}
                <Avatar
                  aria-hidden
                  sx={{ width: 32, height: 32, fontSize: '0.85rem', bgcolor: 'grey.500' }}
                >
                  {initialsOf(conversation.name)}
                </Avatar>
              </Badge>
              <Box sx={{ minWidth: 0, flex: 1 }}>
                <Typography
                  variant="body2"
                  noWrap
                  sx={{ fontWeight: unread ? 700 : 400 }}
                  title={name}
                >
                  {name}
                  <span style={hidden}>{unread ? ' (unread)' : ''}</span>
                </Typography>
                <Box id={`rail-details-${conversation.conversationId}`} aria-hidden>
                  {conversation.reason ? (
                    <Typography
                      variant="caption"
                      component="p"
                      noWrap
                      title={conversation.reason}
                      sx={{ color: 'text.secondary' }}
                    >
                      {conversation.reason}
                    </Typography>
                  ) : null}
                  <Typography variant="caption" component="p">
                    <time dateTime={conversation.waitingSince ?? conversation.allocatedAt}>
                      {waitingText(conversation.waitingSince ?? conversation.allocatedAt, now)}
                    </time>
                  </Typography>
                  {unread ? (
                    <Stack direction="row" sx={{ gap: 0.5, alignItems: 'center' }}>
                      <UnreadDot unread />
                      <Typography variant="caption" sx={{ color: 'primary.main', fontWeight: 700 }}>
                        Unread
                      </Typography>
                    </Stack>
                  ) : null}
                  {flags.length > 0 ? (
                    <Stack
                      direction="row"
                      sx={{ gap: 0.5, alignItems: 'center', color: 'error.light' }}
                      title={flags.join(', ')}
                    >
                      <ReportIcon fontSize="inherit" aria-hidden />
                      <Typography variant="caption" sx={{ fontWeight: 700 }}>
                        Red flag
                      </Typography>
                    </Stack>
                  ) : null}
                </Box>
              </Box>
            </ButtonBase>
          );
        })}
      </Stack>
      {conversations.length > 0 ? (
        <Stack
          role="note"
          aria-label="Legend"
          sx={{ gap: 0.5, borderTop: 1, borderColor: 'divider', pt: 1, color: 'text.secondary' }}
        >
          <Stack direction="row" sx={{ gap: 0.75, alignItems: 'center' }}>
            <UnreadDot unread />
            <Typography variant="caption">{RAIL_LEGEND.unread}</Typography>
          </Stack>
          <Stack direction="row" sx={{ gap: 0.75, alignItems: 'center' }}>
            <ReportIcon fontSize="small" sx={{ color: 'error.main' }} aria-hidden />
            <Typography variant="caption">{RAIL_LEGEND.redFlag}</Typography>
          </Stack>
        </Stack>
      ) : null}
    </Stack>
  );
}
