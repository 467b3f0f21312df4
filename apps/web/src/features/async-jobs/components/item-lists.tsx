import DeleteIcon from '@mui/icons-material/Delete';
import RestoreIcon from '@mui/icons-material/Restore';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { TYPEAHEAD_MIN_CHARS, type TypeaheadResult } from '@loopdesk/contracts/intelligence.ts';
import { useState } from 'react';
import { useConceptTypeahead } from '../../../workbench/api/get-typeahead.ts';
import { useLoadError } from '../hooks/use-load-error.ts';
import type { ListItem as Item } from '../utils/task-screens.ts';

/** An added item: its text and, when chosen from the typeahead, its concept. */
export interface AddedItem {
  text: string;
  cui: string | null;
}

export interface StrikeListProps {
  label: string;
  items: readonly Item[];
  removed: ReadonlySet<string>;
  onToggle: (id: string) => void;
}

/** Existing items; each toggles between kept and struck through for removal (spec 3 §2). */
export function StrikeList({ label, items, removed, onToggle }: StrikeListProps) {
  if (items.length === 0) {
    return <Typography color="text.secondary">{`No ${label.toLowerCase()} yet.`}</Typography>;
  }
  return (
    <List dense aria-label={label}>
      {items.map((item) => {
        const struck = removed.has(item.id);
        return (
          <ListItem
            key={item.id}
            secondaryAction={
              <IconButton
                edge="end"
                aria-label={struck ? `Keep ${item.text}` : `Remove ${item.text}`}
                aria-pressed={struck}
                onClick={() => onToggle(item.id)}
              >
                {struck ? <RestoreIcon /> : <DeleteIcon />}
              </IconButton>
            }
          >
            <ListItemText
              primary={item.text}
              sx={struck ? { textDecoration: 'line-through', opacity: 0.6 } : undefined}
            />
          </ListItem>
        );
      })}
    </List>
  );
}

export interface AddedListProps {
  label: string;
  items: readonly AddedItem[];
  onRemove: (index: number) => void;
}

/** Items added on this screen, each removable. */
export function AddedList({ label, items, onRemove }: AddedListProps) {
  if (items.length === 0) {
    return null;
  }
  return (
    <List dense aria-label={label}>
      {items.map((item, index) => (
        <ListItem
          key={`${index}:${item.text}`}
          secondaryAction={
            <IconButton
              edge="end"
              aria-label={`Delete ${item.text}`}
              onClick={() => onRemove(index)}
            >
              <DeleteIcon />
            </IconButton>
          }
        >
          <ListItemText primary={item.text} secondary={item.cui ?? undefined} />
        </ListItem>
      ))}
    </List>
  );
}

export interface AddFieldProps {
  label: string;
  /** Shown when Add is pressed with too little text. */
  emptyMessage: string;
  /** Least trimmed length Add accepts (default 1). */
  minLength?: number;
  /** A multiline box of at most 8 rows (spec 3 §9); each line becomes an item. */
  multiline?: boolean;
  /** Offer concepts from the typeahead (3 characters or more). */
  concept?: boolean;
  /** Shown when the concept search fails (spec 3 §8). */
  loadError?: string;
  onAdd: (item: AddedItem) => void;
}

/** A text (or concept) field with an Add button, checking the text before adding. */
export function AddField({
  label,
  emptyMessage,
  minLength = 1,
  multiline = false,
  concept = false,
  loadError = 'Error loading concepts',
  onAdd,
}: AddFieldProps) {
  const [text, setText] = useState('');
  const [chosen, setChosen] = useState<TypeaheadResult | null>(null);
  const [error, setError] = useState<string | undefined>(undefined);
  const concepts = useConceptTypeahead(concept ? text : '');
  useLoadError(concepts.isError, loadError);

  const add = () => {
    // A multiline box adds one item per line (spec 3 §2: it "creates extra items").
    const values = (multiline ? text.split(/\r?\n/) : [text])
      .map((line) => line.trim())
      .filter((line) => line !== '');
    if (values.length === 0 || values.some((value) => value.length < minLength)) {
      setError(emptyMessage);
      return;
    }
    for (const value of values) {
      const cui = chosen && chosen.canonicalName === value ? chosen.conceptId : null;
      onAdd({ text: value, cui });
    }
    setText('');
    setChosen(null);
    setError(undefined);
  };

  const change = (value: string) => {
    setText(value);
    setError(undefined);
  };

  const field = concept ? (
    <Autocomplete<TypeaheadResult, false, false, true>
      freeSolo
      sx={{ flex: 1 }}
      options={concepts.data ?? []}
      getOptionLabel={(option) => (typeof option === 'string' ? option : option.canonicalName)}
      getOptionKey={(option) => (typeof option === 'string' ? option : option.conceptId)}
      filterOptions={(all) => all}
      value={chosen}
      onChange={(_event, next) => {
        setChosen(typeof next === 'string' ? null : next);
        if (next && typeof next !== 'string') {
          change(next.canonicalName);
        }
      }}
      inputValue={text}
      onInputChange={(_event, value, reason) => {
        if (reason !== 'reset') {
          change(value);
        }
      }}
      loading={concepts.isFetching}
      noOptionsText={
        text.trim().length < TYPEAHEAD_MIN_CHARS
          ? `Type at least ${TYPEAHEAD_MIN_CHARS} characters`
          : 'No matching concepts'
      }
      renderInput={(params) => (
        <TextField {...params} label={label} error={Boolean(error)} helperText={error} />
      )}
    />
  ) : (
    <TextField
      sx={{ flex: 1 }}
      label={label}
      value={text}
      multiline={multiline}
      maxRows={multiline ? 8 : undefined}
      onChange={(event) => change(event.target.value)}
      onKeyDown={(event) => {
        if (!multiline && event.key === 'Enter') {
          event.preventDefault();
          add();
        }
      }}
      error={Boolean(error)}
      helperText={error ?? (multiline ? `One ${label.toLowerCase()} per line.` : undefined)}
    />
  );

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
      {field}
      <Button variant="outlined" onClick={add} sx={{ mt: 1 }} aria-label={`Add ${label}`}>
        Add
      </Button>
    </Stack>
  );
}
