import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { alpha } from '@mui/material/styles';
import type { SummaryDocument, SummarySection } from '@loopdesk/contracts/summaries.ts';
import { Fragment, useRef, useState, type MouseEvent } from 'react';
import {
  addCode,
  changeCode,
  codesOfAnnotation,
  codingsOf,
  editText,
  removeCode,
  sectionTitle,
  segmentsOf,
  type Span,
} from '../utils/summary-edits.ts';
import { CodePicker } from './code-picker.tsx';

/** What the code panel under a section works on: a new span, or a highlight. */
type Panel = { kind: 'add'; span: Span } | { kind: 'edit'; annotationId: string } | null;

const codesText = (document: SummaryDocument, code: string) => {
  const own = document.codes.find((c) => c.code.code === code);
  const all = own
    ? document.codes.filter((c) => c.code.value === own.code.value)
    : [{ code: { system: 'unknown code', code, value: code } }];
  return `${own?.code.value ?? code}: ${all.map((c) => `${c.code.system} ${c.code.code}`).join(' · ')}`;
};

/** The character offset of a point of the DOM within `container`'s text. */
function offsetIn(container: HTMLElement, node: Node, offset: number): number {
  const range = window.document.createRange();
  range.setStart(container, 0);
  range.setEnd(node, offset);
  return range.toString().length;
}

interface SectionProps {
  document: SummaryDocument;
  section: SummarySection;
  panel: Panel;
  onPanel: (panel: Panel) => void;
  onChange: (document: SummaryDocument) => void;
}

/** One section: its text with highlights (each a button), its text editor and its code panel. */
function SectionEditor({ document, section, panel, onPanel, onChange }: SectionProps) {
  const text = useRef<HTMLDivElement>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const [editing, setEditing] = useState(false);
  const title = sectionTitle(section.id);
  const mine =
    panel?.kind === 'add'
      ? panel.span.sectionId === section.id
      : section.annotations.some((a) => a.id === panel?.annotationId);

  /** A mouse selection in the text opens the panel to code it. */
  const onMouseUp = () => {
    const selection = window.getSelection();
    const container = text.current;
    if (!selection || selection.isCollapsed || !container || selection.rangeCount === 0) {
      return;
    }
    const range = selection.getRangeAt(0);
    if (!container.contains(range.startContainer) || !container.contains(range.endContainer)) {
      return;
    }
    const start = offsetIn(container, range.startContainer, range.startOffset);
    const end = offsetIn(container, range.endContainer, range.endOffset);
    if (end > start && section.content.slice(start, end).trim()) {
      onPanel({ kind: 'add', span: { sectionId: section.id, start, end } });
    }
  };

  /** The keyboard's way: the words selected in the text field. */
  const codeSelection = () => {
    const input = field.current;
    if (input && input.selectionEnd > input.selectionStart) {
      onPanel({
        kind: 'add',
        span: { sectionId: section.id, start: input.selectionStart, end: input.selectionEnd },
      });
    }
  };

  const annotation =
    panel?.kind === 'edit' ? section.annotations.find((a) => a.id === panel.annotationId) : null;
  const extract =
    panel?.kind === 'add' && mine
      ? section.content.slice(panel.span.start, panel.span.end)
      : annotation
        ? section.content.slice(annotation.start, annotation.end)
        : '';

  return (
    <Box component="section" aria-label={title} sx={{ mb: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600, flex: 1 }}>
          {title}
        </Typography>
        <Button size="small" onClick={() => setEditing((on) => !on)}>
          {editing ? `Done editing ${title}` : `Edit text of ${title}`}
        </Button>
      </Stack>
      {editing ? (
        <Stack spacing={1} sx={{ mt: 1 }}>
          <TextField
            label={title}
            multiline
            maxRows={8}
            value={section.content}
            inputRef={field}
            onChange={(event) => onChange(editText(document, section.id, event.target.value))}
          />
          <Button size="small" sx={{ alignSelf: 'flex-start' }} onClick={codeSelection}>
            Add code for selected text
          </Button>
        </Stack>
      ) : (
        <Typography
          ref={text}
          component="div"
          onMouseUp={onMouseUp}
          data-testid={`section-text-${section.id}`}
          sx={{ lineHeight: 2, whiteSpace: 'pre-wrap' }}
        >
          {segmentsOf(section).map(({ text: run, annotation: a }, index) =>
            a ? (
              <Box
                key={a.id}
                component="button"
                type="button"
                aria-label={`${run} (${codesText(document, a.code)})`}
                aria-pressed={panel?.kind === 'edit' && panel.annotationId === a.id}
                onMouseUp={(event: MouseEvent) => event.stopPropagation()}
                onClick={() => onPanel({ kind: 'edit', annotationId: a.id })}
                sx={(theme) => ({
                  font: 'inherit',
                  color: 'inherit',
                  border: 0,
                  borderBottom: `2px solid ${theme.palette.secondary.main}`,
                  borderRadius: 0.5,
                  px: 0.25,
                  cursor: 'pointer',
                  backgroundColor: alpha(theme.palette.secondary.main, 0.25),
                })}
              >
                {run}
              </Box>
            ) : (
              <Fragment key={`text-${index}`}>{run}</Fragment>
            ),
          )}
        </Typography>
      )}
      {mine && panel ? (
        <Paper variant="outlined" sx={{ p: 1.5, mt: 1 }}>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {panel.kind === 'add'
              ? `Add a code for “${extract}”`
              : `“${extract}” is coded ${
                  annotation
                    ? codesOfAnnotation(document, annotation)
                        .map((c) => `${c.code.system} ${c.code.code}`)
                        .join(' · ')
                    : ''
                }`}
          </Typography>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
            <CodePicker
              key={
                panel.kind === 'add'
                  ? `add-${panel.span.start}-${panel.span.end}`
                  : panel.annotationId
              }
              label={panel.kind === 'add' ? 'Concept' : 'Change code'}
              initialText={extract}
              onPick={(concept) => {
                const codings = codingsOf(concept);
                onChange(
                  panel.kind === 'add'
                    ? addCode(document, panel.span, codings)
                    : changeCode(document, panel.annotationId, codings),
                );
                onPanel(null);
              }}
            />
            {panel.kind === 'edit' ? (
              <Button
                color="error"
                onClick={() => {
                  onChange(removeCode(document, panel.annotationId));
                  onPanel(null);
                }}
              >
                Remove code
              </Button>
            ) : null}
            <Button onClick={() => onPanel(null)}>Cancel</Button>
          </Stack>
        </Paper>
      ) : null}
    </Box>
  );
}

/**
 * The editable note titled 'Clinical Summary' (spec 2 §2): each section's text with its entity
 * highlights. Select words (or select them in 'Edit text' with the keyboard) to add a code; press
 * a highlight to change or remove its code; the concept typeahead searches from 3 characters.
 */
export function SummaryEditor({
  document,
  onChange,
}: {
  document: SummaryDocument;
  onChange: (document: SummaryDocument) => void;
}) {
  const [panel, setPanel] = useState<Panel>(null);
  return (
    <Box>
      <Typography variant="h6" component="h3" sx={{ mb: 1 }}>
        Clinical Summary
      </Typography>
      {document.sections.length === 0 ? (
        <Typography>This note has no sections.</Typography>
      ) : (
        document.sections.map((section) => (
          <SectionEditor
            key={section.id}
            document={document}
            section={section}
            panel={panel}
            onPanel={setPanel}
            onChange={onChange}
          />
        ))
      )}
    </Box>
  );
}
