import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useId, useState, type FormEvent } from 'react';
import { CATEGORIES, cuiOf, isComplete, tuisOf, type EntityData } from '../model/annotations.ts';
import { ConceptField } from './concept-field.tsx';

/** Spec 2 §5 / §9 "Multi-line inputs at most 8 rows". */
export const MAX_ROWS = 8;

/** "T047 Disease or Syndrome" → { tui: 'T047', description: 'Disease or Syndrome' }. */
export function parseTui(text: string) {
  const [first = '', ...rest] = text.trim().split(/\s+/);
  return /^T\d{3}$/i.test(first)
    ? { tui: first.toUpperCase(), description: rest.join(' ') }
    : { tui: '', description: text.trim() };
}

export interface EntityEditorProps {
  data: EntityData;
  anchorEl: HTMLElement | null;
  onSave: (data: EntityData, link: boolean) => void;
  /** Whether the entity is linked to the document's concept (has a relationship row) at first. */
  linked: boolean;
  /** The document's concept, named beside the link checkbox; null hides it. */
  documentConcept?: string | null;
  onDelete: () => void;
  onClose: () => void;
  /** The label of the delete button (the review says Reject). */
  deleteLabel?: string;
}

/**
 * The edit popover of an entity (spec 2 §2, §5): category (required, the 16 of spec 2 §5),
 * preferred text, the concept picker (from 3 characters) setting the read-only CUI (required),
 * the TUI list and notes (up to 8 rows). Escape closes it without saving. Mount it anew per entity.
 */
export function EntityEditor({
  data,
  anchorEl,
  onSave,
  onDelete,
  onClose,
  deleteLabel = 'Delete',
  linked,
  documentConcept = null,
}: EntityEditorProps) {
  const [form, setForm] = useState<EntityData>(data);
  const [link, setLink] = useState(linked);
  const [tried, setTried] = useState(false);
  const titleId = useId();
  const set = (patch: Partial<EntityData>) => setForm((current) => ({ ...current, ...patch }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (isComplete(form)) {
      onSave({ ...form, preferredText: form.preferredText.trim(), notes: form.notes.trim() }, link);
    }
  };

  const categoryMissing = tried && !CATEGORIES.includes(form.category);
  const cuiMissing = tried && form.CUI.trim() === '';
  return (
    <Popover
      open
      anchorEl={anchorEl}
      {...(anchorEl
        ? {}
        : { anchorReference: 'anchorPosition' as const, anchorPosition: { top: 120, left: 240 } })}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      slotProps={{
        paper: { role: 'dialog', 'aria-labelledby': titleId, sx: { p: 2, width: 440 } },
      }}
    >
      <form onSubmit={submit} noValidate>
        <Stack spacing={2}>
          <Typography id={titleId} variant="h6" component="h3">
            {`Edit “${data.extract}”`}
          </Typography>
          <TextField
            select
            required
            autoFocus
            label="Category"
            value={form.category}
            onChange={(event) => set({ category: event.target.value })}
            error={categoryMissing}
            helperText={categoryMissing ? 'Choose a category.' : undefined}
          >
            {CATEGORIES.map((category) => (
              <MenuItem key={category} value={category}>
                {category}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label="Preferred text"
            value={form.preferredText}
            onChange={(event) => set({ preferredText: event.target.value })}
          />
          <ConceptField
            initialText={form.conceptName || data.extract}
            onChoose={(option) =>
              set({
                CUI: cuiOf(option),
                conceptName: option.name,
                TUI: option.types.length > 0 ? tuisOf(option.types) : form.TUI,
              })
            }
          />
          <TextField
            label="CUI"
            required
            value={form.CUI}
            slotProps={{ input: { readOnly: true } }}
            error={cuiMissing}
            helperText={
              cuiMissing
                ? 'Choose a concept: it sets the CUI.'
                : form.conceptName
                  ? form.conceptName
                  : 'Set by the concept.'
            }
          />
          <Autocomplete<string, true, false, true>
            multiple
            freeSolo
            options={[]}
            value={form.TUI.map((t) => [t.tui, t.description].filter(Boolean).join(' '))}
            onChange={(_event, next) =>
              set({ TUI: next.map(parseTui).filter((t) => t.tui !== '' || t.description !== '') })
            }
            renderValue={(values, getItemProps) =>
              values.map((value, index) => {
                const { key, ...props } = getItemProps({ index });
                return <Chip key={key} label={value} size="small" {...props} />;
              })
            }
            renderInput={(params) => (
              <TextField
                {...params}
                label="TUI"
                helperText="A semantic type and its description, e.g. T047 Disease or Syndrome; Enter adds it."
              />
            )}
          />
          <TextField
            label="Notes"
            multiline
            minRows={2}
            maxRows={MAX_ROWS}
            value={form.notes}
            onChange={(event) => set({ notes: event.target.value })}
          />
          {documentConcept !== null ? (
            <FormControlLabel
              control={
                <Checkbox checked={link} onChange={(event) => setLink(event.target.checked)} />
              }
              label={`Relationship with ${documentConcept} (a row of the table)`}
            />
          ) : null}
          <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
            <Button color="error" onClick={onDelete}>
              {deleteLabel}
            </Button>
            <Button onClick={onClose}>Cancel</Button>
            <Button type="submit" variant="contained">
              Save
            </Button>
          </Stack>
        </Stack>
      </form>
    </Popover>
  );
}
