import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import ReportIcon from '@mui/icons-material/Report';
import { HPI_CATEGORIES, categoryLabel } from '@loopdesk/contracts/category-menus.ts';
import {
  isDerivedMessageId as isDerived,
  type ConversationMessage,
  type MessageEntity,
} from '@loopdesk/contracts/conversations.ts';
import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import type { MenuEntry } from '@loopdesk/workbench/menu.ts';
import { useEffect, useRef, useState } from 'react';
import {
  AnnotatedText,
  type MessageSelection,
} from '../../../workbench/components/annotated-text.tsx';
import { HotkeyMenu } from '../../../workbench/components/hotkey-menu.tsx';
import type { Transcript as TranscriptData } from '../hooks/use-transcript.ts';

/** An entity the reviewer focused: picked from the menu on a selection, or a message's chip. */
export interface FocusedEntity {
  extract: string;
  category: string;
}

/** What the transcript shows before its first page arrives, and when there is nothing yet. */
export const TRANSCRIPT_LOADING = 'Loading the conversation…';
export const TRANSCRIPT_EMPTY = 'No messages in this conversation yet.';

/**
 * Who wrote a message, each with its own look and label (issue 20): the patient on the left, the
 * assistant and the staff (reviewers' manual replies) on the right, in different colours.
 */
const AUTHOR_LOOKS = {
  patient: { label: 'Patient', colour: 'info', tint: 0.08, align: 'flex-start' },
  assistant: { label: 'Assistant', colour: 'secondary', tint: 0.12, align: 'flex-end' },
  reviewer: { label: 'Staff', colour: 'success', tint: 0.16, align: 'flex-end' },
} as const satisfies Record<
  ConversationMessage['author']['kind'],
  {
    label: string;
    colour: 'info' | 'secondary' | 'success';
    tint: number;
    align: 'flex-start' | 'flex-end';
  }
>;

const MENU: MenuEntry[] = HPI_CATEGORIES.map((c) => ({ label: c.label, category: c.code }));

/** Where the focused extract appears in a message, as highlights. */
function occurrences(text: string, focus: FocusedEntity | null): AnnotationEntity[] {
  if (!focus) {
    return [];
  }
  const found: AnnotationEntity[] = [];
  const haystack = text.toLowerCase();
  const needle = focus.extract.toLowerCase();
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) {
    found.push({
      start: at,
      end: at + needle.length,
      extract: text.slice(at, at + needle.length),
      category: focus.category,
    });
    at += needle.length - 1;
  }
  return found;
}

/** Whether a derived message is about the focused entity. */
function about(message: ConversationMessage, focus: FocusedEntity): boolean {
  const needle = focus.extract.toLowerCase();
  const match = (entity: MessageEntity) => {
    const extract = entity.extract.toLowerCase();
    return (
      entity.category === focus.category || extract.includes(needle) || needle.includes(extract)
    );
  };
  return message.metadata.entities.some(match) || message.content.toLowerCase().includes(needle);
}

export interface TranscriptProps {
  transcript: TranscriptData;
}

/**
 * The live chat transcript (spec 2 §2): messages oldest first; derived messages (ids ending in
 * -DER) stay hidden unless an entity is focused; selecting text opens the annotation menu, whose
 * category focuses that entity.
 */
export function Transcript({ transcript }: TranscriptProps) {
  const [focus, setFocus] = useState<FocusedEntity | null>(null);
  const [menu, setMenu] = useState<{ extract: string; rect: DOMRect | null } | null>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const newest = transcript.messages.at(-1)?.id;
  // A new message scrolls the transcript down, unless the reviewer scrolled up to read.
  useEffect(() => {
    const list = listRef.current;
    if (list && list.scrollHeight - list.scrollTop - list.clientHeight < 160) {
      list.scrollTop = list.scrollHeight;
    }
  }, [newest]);
  const visible = transcript.messages.filter(
    (message) => !isDerived(message.id) || (focus !== null && about(message, focus)),
  );

  const onSelect = (message: ConversationMessage) => (selection: MessageSelection) => {
    const extract = message.content.slice(selection.span.start, selection.span.end).trim();
    if (extract.length > 0) {
      setMenu({ extract, rect: selection.rect });
    }
  };

  return (
    <Stack sx={{ gap: 1, minHeight: 0, flexGrow: 1 }}>
      {focus ? (
        <Stack direction="row" sx={{ gap: 1, alignItems: 'center' }}>
          <Typography variant="body2">Focused:</Typography>
          <Chip
            label={`${focus.extract} (${categoryLabel(focus.category)})`}
            onDelete={() => setFocus(null)}
            color="secondary"
          />
        </Stack>
      ) : null}
      {transcript.error ? (
        <Typography role="alert" color="error">
          {transcript.error}
        </Typography>
      ) : null}
      {transcript.loading ? (
        <Typography role="status" sx={{ color: 'text.secondary' }}>
          {TRANSCRIPT_LOADING}
        </Typography>
      ) : null}
      {!transcript.loading && !transcript.error && transcript.messages.length === 0 ? (
        <Typography role="status" sx={{ color: 'text.secondary' }}>
          {TRANSCRIPT_EMPTY}
        </Typography>
      ) : null}
      <Box
        component="ol"
        ref={listRef}
        aria-label="Transcript"
        aria-live="polite"
        sx={{
          listStyle: 'none',
          m: 0,
          p: 0,
          overflow: 'auto',
          flex: 1,
          minHeight: 0,
          display: 'flex',
          flexDirection: 'column',
          gap: 1,
        }}
      >
        {transcript.hasEarlier ? (
          <Box component="li" sx={{ alignSelf: 'center' }}>
            <Button size="small" onClick={() => transcript.loadEarlier()}>
              Load earlier messages
            </Button>
          </Box>
        ) : null}
        {visible.map((message) => {
          const look = AUTHOR_LOOKS[message.author.kind];
          const flags = message.redFlags ?? [];
          return (
            <Box
              component="li"
              key={message.id}
              data-message-id={message.id}
              data-author={message.author.kind}
              sx={{
                alignSelf: look.align,
                maxWidth: '85%',
                bgcolor: (theme) => alpha(theme.palette[look.colour].main, look.tint),
                border: 1,
                borderLeftWidth: look.align === 'flex-start' ? 4 : 1,
                borderRightWidth: look.align === 'flex-end' ? 4 : 1,
                borderColor: flags.length > 0 ? 'error.main' : `${look.colour}.main`,
                borderStyle: isDerived(message.id) ? 'dashed' : 'solid',
                borderRadius: 2,
                px: 1.5,
                py: 1,
                '& [aria-roledescription="annotatable text"]': {
                  fontSize: '0.95rem',
                  lineHeight: 1.7,
                  p: 0,
                  bgcolor: 'transparent',
                },
              }}
            >
              <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                <Box component="strong" sx={{ color: `${look.colour}.main` }}>
                  {look.label}
                </Box>
                {message.author.kind === 'assistant' ? '' : ` · ${message.author.name}`} ·{' '}
                {new Date(message.createdOn).toLocaleTimeString()}
                {message.replyType ? ` · ${message.replyType}` : ''}
              </Typography>
              {flags.length > 0 ? (
                <Stack
                  direction="row"
                  sx={{ gap: 0.5, alignItems: 'center', color: 'error.light', fontWeight: 700 }}
                  title={flags
                    .map(
                      (flag) => `${flag.observation}: may point to ${flag.conditions.join(', ')}`,
                    )
                    .join('\n')}
                >
                  <ReportIcon fontSize="small" aria-hidden />
                  <Typography variant="body2" sx={{ fontWeight: 700 }}>
                    Red flag: {flags.map((flag) => flag.observation).join(', ')}
                  </Typography>
                </Stack>
              ) : null}
              <AnnotatedText
                text={message.content}
                entities={occurrences(message.content, focus)}
                label={`Message from ${message.author.name}`}
                onSelect={onSelect(message)}
              />
              {message.metadata.entities.length > 0 ? (
                <Stack direction="row" sx={{ gap: 0.5, flexWrap: 'wrap', mt: 0.5 }}>
                  {message.metadata.entities.map((entity, index) => (
                    <Chip
                      key={`${entity.extract}-${index}`}
                      size="small"
                      label={`${entity.extract} · ${categoryLabel(entity.category)}`}
                      onClick={() =>
                        setFocus({ extract: entity.extract, category: entity.category })
                      }
                    />
                  ))}
                </Stack>
              ) : null}
            </Box>
          );
        })}
      </Box>
      {menu ? (
        <HotkeyMenu
          entries={MENU}
          anchor={{
            bottom: menu.rect?.bottom ?? 0,
            left: menu.rect?.left ?? 0,
            top: menu.rect?.top ?? 0,
          }}
          label="Focus an entity"
          onAnnotate={(category) => {
            setFocus({ extract: menu.extract, category });
            setMenu(null);
            window.getSelection()?.removeAllRanges();
          }}
          onClose={() => setMenu(null)}
        />
      ) : null}
    </Stack>
  );
}
