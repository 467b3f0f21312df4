import DeleteIcon from '@mui/icons-material/Delete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  ASYNC_ANNOTATION_CATEGORIES,
  AsyncEntity,
  CONCEPT_PICKER_CATEGORIES,
  type AsyncAnnotationCategory,
} from '@loopdesk/contracts/async-jobs.ts';
import type { Span } from '@loopdesk/workbench/entities.ts';
import { MENU_HOTKEYS } from '@loopdesk/workbench/menu.ts';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { typingIn } from '../../../workbench/utils/typing-in.ts';
import { AnnotatedText } from '../../../workbench/components/annotated-text.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import {
  ANNOTATE_PROMPT,
  ASKED,
  DELETE_ANNOTATION,
  NORMALISED_CONCEPTS_LOAD_ERROR,
} from '../utils/messages.ts';
import { checkSubmission, textOf } from '../utils/task-screens.ts';
import { ConceptPicker, type ConceptChoice } from './concept-picker.tsx';
import { rowLabel } from './row-label.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { listDraft, useDraftState } from '../hooks/use-draft-state.ts';

/** An entity on the screen, with what the user did to it. */
interface Row {
  entity: AsyncEntity;
  added: boolean;
  modified: boolean;
  deleted: boolean;
  checked: boolean;
}

const hasPicker = (category: AsyncAnnotationCategory) =>
  CONCEPT_PICKER_CATEGORIES.includes(category);

/** The task's entities that have the spec's shape; anything else is left out. */
function entitiesOf(value: unknown[]): AsyncEntity[] {
  return value.flatMap((item) => {
    const parsed = AsyncEntity.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

const conceptOf = (entity: AsyncEntity): ConceptChoice | null =>
  entity.conceptId ? { conceptId: entity.conceptId, name: entity.conceptName ?? '' } : null;

/**
 * Annotation Job and Annotation Approval Job (spec 3 §2): select text in the message, choose
 * one of the 8 categories and, for Symptom, Associated symptom, Diagnosis and Medication, a
 * concept. The approval screen approves, adds, modifies or deletes the annotator's entities.
 */
export function AnnotationScreen({ approval, ...props }: TaskScreenProps & { approval: boolean }) {
  const text = textOf(props.task.data, 'text');
  const context = textOf(props.task.data, 'context').replace(/^Asked:\s*/, '');
  const [rows, setRows] = useDraftState<Row[]>(
    'rows',
    () =>
      entitiesOf(props.task.annotations.entities).map((entity) => ({
        entity,
        added: false,
        modified: false,
        deleted: entity.state === 'DELETED',
        checked: entity.checked ?? false,
      })),
    listDraft(),
  );
  const [selection, setSelection] = useState<Span | null>(null);
  const [pending, setPending] = useState<{
    span: Span;
    category: AsyncAnnotationCategory;
    concept: ConceptChoice | null;
  } | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const counter = useRef(0);

  const visible = rows.filter((row) => !row.deleted);
  const update = (id: string, change: (row: Row) => Row) =>
    setRows((current) => current.map((row) => (row.entity.id === id ? change(row) : row)));
  const edit = (id: string, entity: Partial<AsyncEntity>) =>
    update(id, (row) => ({
      ...row,
      entity: { ...row.entity, ...entity },
      modified: !row.added,
    }));

  const add = (span: Span, category: AsyncAnnotationCategory, concept: ConceptChoice | null) => {
    counter.current += 1;
    const entity: AsyncEntity = {
      id: `added-${counter.current}`,
      start: span.start,
      end: span.end,
      extract: text.slice(span.start, span.end),
      category,
      conceptId: concept?.conceptId ?? null,
      conceptName: concept?.name ?? null,
      ...(approval ? { added: true } : {}),
    };
    setRows((current) => [
      ...current,
      { entity, added: true, modified: false, deleted: false, checked: false },
    ]);
    setSelection(null);
    setPending(null);
    window.getSelection()?.removeAllRanges();
  };

  const choose = (category: AsyncAnnotationCategory) => {
    if (!selection) {
      return;
    }
    if (hasPicker(category)) {
      setPending({ span: selection, category, concept: null });
    } else {
      add(selection, category, null);
    }
  };

  // Digits pick a category, as in the federated menu (issue 20 point 21): 1 Symptom … 8 Quality.
  const chooseByKey = useEffectEvent((category: AsyncAnnotationCategory) => choose(category));
  const choosing = selection !== null && pending === null;
  useEffect(() => {
    if (!choosing) {
      return undefined;
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) {
        return;
      }
      const index = (MENU_HOTKEYS as readonly string[]).indexOf(event.key);
      const category = ASYNC_ANNOTATION_CATEGORIES[index];
      if (index >= 0 && category) {
        event.preventDefault();
        chooseByKey(category);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [choosing]);

  const build = () => {
    const live = rows.filter((row) => !row.deleted);
    if (!approval) {
      return checkSubmission('annotation', {
        annotations: { entities: live.map((row) => row.entity) },
      });
    }
    const existing = rows.filter((row) => !row.added);
    return checkSubmission('annotation.approval', {
      approved: {
        entities: existing
          .filter((row) => row.checked && !row.deleted && !row.modified)
          .map((row) => ({ ...row.entity, checked: true })),
      },
      added: { entities: live.filter((row) => row.added).map((row) => row.entity) },
      modified: {
        entities: existing
          .filter((row) => row.modified && !row.deleted)
          .map((row) => ({ ...row.entity, modified: true, checked: row.checked })),
      },
      deleted: {
        entities: existing.filter((row) => row.deleted).map((row) => row.entity),
      },
    });
  };

  return (
    <TaskLayout
      {...props}
      title={approval ? 'Annotation Approval Job' : 'Annotation Job'}
      build={build}
    >
      <Stack spacing={2}>
        <Typography>{ANNOTATE_PROMPT}</Typography>
        {context ? <Typography color="text.secondary">{`${ASKED}${context}`}</Typography> : null}
        <AnnotatedText
          text={text}
          entities={visible.map((row) => row.entity)}
          onDelete={(entity) => setConfirmDelete(entity.id ?? null)}
          onSelect={({ span }) => {
            setSelection(span);
            setPending(null);
          }}
          onDeselect={() => setSelection(null)}
        />
        {!selection && !pending ? (
          <Typography variant="body2" color="text.secondary">
            Select words in the text, then choose their category.
          </Typography>
        ) : null}
        {selection && !pending ? (
          <Stack spacing={1}>
            <Typography variant="body2">
              {`Selected: "${text.slice(selection.start, selection.end)}". Choose its category (or press its digit):`}
            </Typography>
            <ToggleButtonGroup
              aria-label="Category"
              size="small"
              exclusive
              value={null}
              onChange={(_event, value: AsyncAnnotationCategory | null) => {
                if (value) {
                  choose(value);
                }
              }}
              sx={{ flexWrap: 'wrap' }}
            >
              {ASYNC_ANNOTATION_CATEGORIES.map((category, index) => (
                <ToggleButton
                  key={category}
                  value={category}
                  aria-keyshortcuts={MENU_HOTKEYS[index]}
                  sx={{ gap: 0.75 }}
                >
                  <Box
                    component="kbd"
                    aria-hidden
                    sx={{
                      fontFamily: 'inherit',
                      fontWeight: 700,
                      border: 1,
                      borderColor: 'divider',
                      borderRadius: 0.5,
                      px: 0.5,
                      lineHeight: 1.4,
                    }}
                  >
                    {MENU_HOTKEYS[index]}
                  </Box>
                  {category}
                </ToggleButton>
              ))}
            </ToggleButtonGroup>
          </Stack>
        ) : null}
        {pending ? (
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
            <Typography variant="body2">
              {`${pending.category}: "${text.slice(pending.span.start, pending.span.end)}"`}
            </Typography>
            <ConceptPicker
              label="Concept"
              value={pending.concept}
              initialText={text.slice(pending.span.start, pending.span.end)}
              onChange={(concept) => setPending({ ...pending, concept })}
              errorMessage={NORMALISED_CONCEPTS_LOAD_ERROR}
              autoFocus
            />
            <Button
              variant="outlined"
              onClick={() => add(pending.span, pending.category, pending.concept)}
            >
              Add annotation
            </Button>
            <Button onClick={() => setPending(null)}>Cancel</Button>
          </Stack>
        ) : null}
        <EntityTable
          rows={visible}
          approval={approval}
          onCategory={(id, category) =>
            edit(id, {
              category,
              ...(hasPicker(category) ? {} : { conceptId: null, conceptName: null }),
            })
          }
          onConcept={(id, concept) =>
            edit(id, { conceptId: concept?.conceptId ?? null, conceptName: concept?.name ?? null })
          }
          onCheck={(id, checked) => update(id, (row) => ({ ...row, checked }))}
          onDelete={setConfirmDelete}
        />
      </Stack>
      <ConfirmDialog
        open={confirmDelete !== null}
        title="Delete annotation"
        message={DELETE_ANNOTATION}
        confirmLabel="Delete"
        onConfirm={() => {
          if (confirmDelete) {
            // An annotation added here just goes; an existing one is submitted as deleted.
            setRows((current) =>
              current.flatMap((row) => {
                if (row.entity.id !== confirmDelete) {
                  return [row];
                }
                return row.added ? [] : [{ ...row, deleted: true }];
              }),
            );
          }
          setConfirmDelete(null);
        }}
        onCancel={() => setConfirmDelete(null)}
      />
    </TaskLayout>
  );
}

interface EntityTableProps {
  rows: readonly Row[];
  approval: boolean;
  onCategory: (id: string, category: AsyncAnnotationCategory) => void;
  onConcept: (id: string, concept: ConceptChoice | null) => void;
  onCheck: (id: string, checked: boolean) => void;
  onDelete: (id: string) => void;
}

/** The annotations as a table: category and concept can be changed, each can be deleted. */
function EntityTable({
  rows,
  approval,
  onCategory,
  onConcept,
  onCheck,
  onDelete,
}: EntityTableProps) {
  if (rows.length === 0) {
    return <Typography color="text.secondary">No annotations yet.</Typography>;
  }
  return (
    <Table size="small" aria-label="Annotations">
      <TableHead>
        <TableRow>
          {approval ? <TableCell padding="checkbox">Approve</TableCell> : null}
          <TableCell>Text</TableCell>
          <TableCell>Category</TableCell>
          <TableCell>Concept</TableCell>
          <TableCell />
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map(({ entity, added, modified, checked }) => (
          <TableRow key={entity.id}>
            {approval ? (
              <TableCell padding="checkbox">
                <Checkbox
                  checked={checked}
                  onChange={(event) => onCheck(entity.id, event.target.checked)}
                  slotProps={{ input: { 'aria-label': `Approve ${entity.extract}` } }}
                />
              </TableCell>
            ) : null}
            <TableCell>
              {entity.extract}
              {added && approval ? ' (added)' : modified ? ' (modified)' : ''}
            </TableCell>
            <TableCell sx={{ minWidth: 180 }}>
              <TextField
                select
                size="small"
                fullWidth
                label={rowLabel('Category', entity.extract)}
                value={entity.category}
                onChange={(event) =>
                  onCategory(entity.id, event.target.value as AsyncAnnotationCategory)
                }
              >
                {ASYNC_ANNOTATION_CATEGORIES.map((category) => (
                  <MenuItem key={category} value={category}>
                    {category}
                  </MenuItem>
                ))}
              </TextField>
            </TableCell>
            <TableCell sx={{ minWidth: 240 }}>
              {hasPicker(entity.category) ? (
                <ConceptPicker
                  label={rowLabel('Concept', entity.extract)}
                  value={conceptOf(entity)}
                  initialText={entity.conceptName ?? ''}
                  onChange={(concept) => onConcept(entity.id, concept)}
                  errorMessage={NORMALISED_CONCEPTS_LOAD_ERROR}
                />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  —
                </Typography>
              )}
            </TableCell>
            <TableCell padding="checkbox">
              <IconButton
                aria-label={`Delete ${entity.extract}`}
                onClick={() => onDelete(entity.id)}
              >
                <DeleteIcon />
              </IconButton>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
