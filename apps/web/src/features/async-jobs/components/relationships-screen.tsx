import DeleteIcon from '@mui/icons-material/Delete';
import RestoreIcon from '@mui/icons-material/Restore';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { isStruck, type ObservationRelationship } from '@loopdesk/contracts/async-jobs.ts';
import { useState, type ReactNode } from 'react';
import { checkSubmission, newItemId, toggled, type CheckResult } from '../utils/task-screens.ts';
import { RELATIONSHIP_CLASS_TYPES, ObservationAdder } from './observation-adder.tsx';
import { ConditionHeader } from './observations-screen.tsx';
import { rowLabel } from './row-label.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { idSetDraft, listDraft, useDraftState } from '../hooks/use-draft-state.ts';

const CORRELATIONS = ['Positive', 'Negative'] as const;
const WEIGHTS = ['Low', 'Medium', 'High'] as const;
export const AT_LEAST_ONE_OBSERVATION = 'Add at least 1 observation.';
export const OBSERVATION_NEEDS_NAME = 'Every observation needs a name.';

const pick = <T extends string>(choices: readonly T[], value: unknown, fallback: T): T =>
  choices.find((choice) => choice === value) ?? fallback;

/** The condition's observations as relationships (spec 3 §3), with defaults for missing fields. */
export function relationshipsOf(task: TaskScreenProps['task']): ObservationRelationship[] {
  const value = task.condition.observations;
  if (!Array.isArray(value)) {
    return [];
  }
  return (value as unknown[]).flatMap((item) => {
    if (!item || typeof item !== 'object') {
      return [];
    }
    const o = item as Record<string, unknown>;
    if (typeof o.id !== 'string' || !o.id) {
      return [];
    }
    return [
      {
        id: o.id,
        name: typeof o.name === 'string' ? o.name : '',
        cui: typeof o.cui === 'string' ? o.cui : null,
        observationClass:
          typeof o.observationClass === 'string' && o.observationClass
            ? o.observationClass
            : 'observation',
        correlation: pick(CORRELATIONS, o.correlation, 'Positive'),
        weight: pick(WEIGHTS, o.weight, 'Medium'),
      },
    ];
  });
}

/** A small select of a table row (correlation, weight). */
function RowSelect<T extends string>({
  label,
  choices,
  value,
  disabled,
  onChange,
}: {
  label: ReactNode;
  choices: readonly T[];
  value: T;
  disabled: boolean;
  onChange: (value: T) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label={label}
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(pick(choices, event.target.value, value))}
    >
      {choices.map((choice) => (
        <MenuItem key={choice} value={choice}>
          {choice}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** Spec 3 §5: at least 1 observation and none without a name. */
export function checkRelationships(
  kind: 'relationships' | 'relationships.approval',
  rows: readonly ObservationRelationship[],
  removed: ReadonlySet<string>,
  existingIds: ReadonlySet<string>,
): CheckResult {
  const kept = rows.filter((row) => !removed.has(row.id));
  if (kept.length === 0) {
    return { ok: false, error: AT_LEAST_ONE_OBSERVATION };
  }
  if (kept.some((row) => !row.name.trim())) {
    return { ok: false, error: OBSERVATION_NEEDS_NAME };
  }
  return checkSubmission(kind, {
    removedObservations: [...removed].filter((id) => existingIds.has(id)),
    observations: kept.map((row) => ({ ...row, name: row.name.trim() })),
  });
}

/**
 * Observation Relationships Job and Relationships Approval Job (spec 3 §2): each observation
 * of the condition has a correlation (Positive, Negative) and a weight (Low, Medium, High);
 * observations can be struck through for removal, and signs or symptoms added.
 */
export function RelationshipsScreen({
  approval,
  ...props
}: TaskScreenProps & { approval: boolean }) {
  const [rows, setRows] = useDraftState<ObservationRelationship[]>(
    'rows',
    () => relationshipsOf(props.task),
    listDraft(),
  );
  const [existingIds] = useState<ReadonlySet<string>>(
    () => new Set(relationshipsOf(props.task).map((row) => row.id)),
  );
  // Rows that came without a name keep their name field while it is typed in.
  const [unnamed] = useState<ReadonlySet<string>>(
    () => new Set(relationshipsOf(props.task).flatMap((row) => (row.name ? [] : [row.id]))),
  );
  // Rows an earlier step struck out start struck; unstriking one keeps it after all.
  const [removed, setRemoved] = useDraftState<ReadonlySet<string>>(
    'removed',
    () => {
      const value = props.task.condition.observations;
      return new Set(
        (Array.isArray(value) ? (value as unknown[]) : []).flatMap((item) =>
          isStruck(item) ? [(item as { id: string }).id] : [],
        ),
      );
    },
    idSetDraft,
  );
  const update = (id: string, change: Partial<ObservationRelationship>) =>
    setRows((current) => current.map((row) => (row.id === id ? { ...row, ...change } : row)));

  const build = () =>
    checkRelationships(
      approval ? 'relationships.approval' : 'relationships',
      rows,
      removed,
      existingIds,
    );

  return (
    <TaskLayout
      {...props}
      title={approval ? 'Relationships Approval Job' : 'Observation Relationships Job'}
      build={build}
    >
      <Stack spacing={2}>
        <ConditionHeader task={props.task} />
        {rows.length === 0 ? (
          <Typography color="text.secondary">No observations yet.</Typography>
        ) : (
          <Table size="small" aria-label="Observations">
            <TableHead>
              <TableRow>
                <TableCell>Observation</TableCell>
                <TableCell>Class</TableCell>
                <TableCell>Correlation</TableCell>
                <TableCell>Weight</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => {
                const struck = removed.has(row.id);
                const label = row.name || 'the observation without a name';
                return (
                  <TableRow
                    key={row.id}
                    sx={struck ? { opacity: 0.6, '& td': { textDecoration: 'line-through' } } : {}}
                  >
                    <TableCell>
                      {!unnamed.has(row.id) ? (
                        row.name
                      ) : (
                        <TextField
                          size="small"
                          label="Name"
                          value={row.name}
                          error={!row.name.trim()}
                          onChange={(event) => update(row.id, { name: event.target.value })}
                        />
                      )}
                    </TableCell>
                    <TableCell>{row.observationClass}</TableCell>
                    <TableCell>
                      <RowSelect
                        label={rowLabel('Correlation', label)}
                        choices={CORRELATIONS}
                        value={row.correlation}
                        disabled={struck}
                        onChange={(correlation) => update(row.id, { correlation })}
                      />
                    </TableCell>
                    <TableCell>
                      <RowSelect
                        label={rowLabel('Weight', label)}
                        choices={WEIGHTS}
                        value={row.weight}
                        disabled={struck}
                        onChange={(weight) => update(row.id, { weight })}
                      />
                    </TableCell>
                    <TableCell padding="checkbox">
                      <IconButton
                        aria-label={struck ? `Keep ${label}` : `Remove ${label}`}
                        aria-pressed={struck}
                        onClick={() => {
                          if (existingIds.has(row.id)) {
                            setRemoved((current) => toggled(current, row.id));
                          } else {
                            setRows((current) => current.filter((r) => r.id !== row.id));
                          }
                        }}
                      >
                        {struck ? <RestoreIcon /> : <DeleteIcon />}
                      </IconButton>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
        <ObservationAdder
          classTypes={RELATIONSHIP_CLASS_TYPES}
          onAdd={(observation) =>
            setRows((current) => [
              ...current,
              {
                id: newItemId(),
                name: observation.name,
                cui: observation.conceptId,
                observationClass: observation.observationClass,
                correlation: 'Positive',
                weight: 'Medium',
              },
            ])
          }
        />
      </Stack>
    </TaskLayout>
  );
}
