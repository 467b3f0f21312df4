import Autocomplete from '@mui/material/Autocomplete';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { ModelName } from '@loopdesk/contracts/intelligence.ts';
import { useModelItems } from '../api/get-model-items.ts';
import { useLoadError } from '../hooks/use-load-error.ts';
import { checkSubmission } from '../utils/task-screens.ts';
import { ConditionHeader } from './observations-screen.tsx';
import { TermChip, splitTyped, uniqueByName, useNewTermQuestion } from './new-term.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { recordDraft, useDraftState } from '../hooks/use-draft-state.ts';

/** A location list item as the screen keeps it; `bid` is null for free text. */
export interface LocationChoice {
  display: string;
  bid: string | null;
}

const LISTS = [
  { key: 'pathologicalProcesses', label: 'Pathological Process', model: 'pathological-processes' },
  { key: 'bodySystems', label: 'Body System', model: 'body-systems' },
  { key: 'anatomicalLocations', label: 'Anatomical Location', model: 'anatomical-locations' },
] as const satisfies readonly { key: string; label: string; model: ModelName }[];
type ListKey = (typeof LISTS)[number]['key'];

/** The task's items of one list: `{ display, bid }` or `{ coding: { display }, bid }` (spec 3 §3). */
export function locationsOf(locations: Record<string, unknown>, key: ListKey): LocationChoice[] {
  const value = locations[key];
  if (!Array.isArray(value)) {
    return [];
  }
  return (value as unknown[]).flatMap((item) => {
    if (!item || typeof item !== 'object') {
      return [];
    }
    const o = item as { display?: unknown; bid?: unknown; coding?: { display?: unknown } };
    const display =
      typeof o.display === 'string'
        ? o.display
        : typeof o.coding?.display === 'string'
          ? o.coding.display
          : '';
    return display ? [{ display, bid: typeof o.bid === 'string' ? o.bid : null }] : [];
  });
}

function LocationSelect({
  label,
  model,
  value,
  onChange,
}: {
  label: string;
  model: ModelName;
  value: LocationChoice[];
  onChange: (value: LocationChoice[]) => void;
}) {
  const items = useModelItems(model);
  useLoadError(items.isError, `Error loading ${label.toLowerCase()} list`);
  const options: LocationChoice[] = (items.data ?? []).map((i) => ({
    display: i.display,
    bid: i.bid,
  }));
  const newTerm = useNewTermQuestion(label);
  return (
    <>
      {newTerm.dialog}
      <Autocomplete<LocationChoice, true, false, true>
        multiple
        freeSolo
        options={options}
        getOptionLabel={(option) => (typeof option === 'string' ? option : option.display)}
        getOptionKey={(option) =>
          typeof option === 'string' ? option : (option.bid ?? `free:${option.display}`)
        }
        isOptionEqualToValue={(option, chosen) =>
          typeof chosen === 'string'
            ? option.display === chosen
            : option.bid !== null
              ? option.bid === chosen.bid
              : option.display === chosen.display
        }
        filterSelectedOptions
        value={value}
        autoHighlight
        onChange={(_event, next) => {
          const { items: chosen, newTerms } = splitTyped(next, options, displayOf);
          const [term] = newTerms;
          if (term === undefined) {
            onChange(uniqueByName(chosen, displayOf));
            return;
          }
          newTerm.ask(term, () =>
            onChange(uniqueByName([...chosen, { display: term, bid: null }], displayOf)),
          );
        }}
        renderValue={(chosen, getItemProps) =>
          chosen.map((option, index) => {
            const { key, ...itemProps } = getItemProps({ index });
            return typeof option === 'string' ? null : (
              <TermChip
                key={key}
                {...itemProps}
                label={option.display}
                known={option.bid !== null}
              />
            );
          })
        }
        loading={items.isFetching}
        renderInput={(params) => (
          <TextField
            {...params}
            label={label}
            helperText="Choose from the list, or type a new term and press Enter"
          />
        )}
      />
    </>
  );
}

const displayOf = (item: LocationChoice) => item.display;

/**
 * Location Job and its review (spec 3 §2 Location review): three multi-selects (Pathological
 * Process, Body System, Anatomical Location) that also take free text, preselected from the task.
 */
export function LocationScreen({ review, ...props }: TaskScreenProps & { review: boolean }) {
  const [lists, setLists] = useDraftState<Record<ListKey, LocationChoice[]>>(
    'lists',
    () => ({
      pathologicalProcesses: locationsOf(props.task.locations, 'pathologicalProcesses'),
      bodySystems: locationsOf(props.task.locations, 'bodySystems'),
      anatomicalLocations: locationsOf(props.task.locations, 'anatomicalLocations'),
    }),
    recordDraft(),
  );

  const build = () => checkSubmission('location', { locations: lists });

  return (
    <TaskLayout {...props} title={review ? 'Location Review' : 'Location Job'} build={build}>
      <Stack spacing={2}>
        <ConditionHeader task={props.task} />
        {LISTS.map((list) => (
          <LocationSelect
            key={list.key}
            label={list.label}
            model={list.model}
            value={lists[list.key]}
            onChange={(value) => setLists((current) => ({ ...current, [list.key]: value }))}
          />
        ))}
      </Stack>
    </TaskLayout>
  );
}
