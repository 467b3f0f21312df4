import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { AsyncEntity } from '@loopdesk/contracts/async-jobs.ts';
import { AnnotatedText } from '../../../workbench/components/annotated-text.tsx';
import { NORMALISED_CONCEPTS_LOAD_ERROR } from '../utils/messages.ts';
import { checkSubmission, textOf } from '../utils/task-screens.ts';
import { ConceptPicker, type ConceptChoice } from './concept-picker.tsx';
import { rowLabel } from './row-label.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { listDraft, useDraftState } from '../hooks/use-draft-state.ts';

interface Row {
  entity: AsyncEntity;
  concept: ConceptChoice | null;
  unable: boolean;
  checked: boolean;
}

export function normalisationRows(task: TaskScreenProps['task'], approval: boolean): Row[] {
  return task.annotations.entities.flatMap((item) => {
    const parsed = AsyncEntity.safeParse(item);
    if (!parsed.success) {
      return [];
    }
    const entity = parsed.data;
    const unable = (item as { unableToNormalise?: unknown }).unableToNormalise === true;
    return [
      {
        entity,
        concept: entity.conceptId
          ? { conceptId: entity.conceptId, name: entity.conceptName ?? entity.conceptId }
          : null,
        unable,
        // Spec 3 §4: on approval, entities not in state NORMALISED start checked.
        checked: approval && entity.state !== 'NORMALISED',
      },
    ];
  });
}

/** Spec 3 §4: ready once every entity has a concept or is unable to normalise (approval: at once). */
export function normalisationReady(rows: readonly Row[], approval: boolean): boolean {
  return approval || rows.every((row) => row.concept !== null || row.unable);
}

/**
 * Normalisation Job (type 'hitl.jobs.async.entity.normalisation', spec 3 §2): each entity gets a
 * concept, or is marked unable to normalise; the approval step checks them.
 */
export function NormalisationScreen(props: TaskScreenProps) {
  const approval = props.task.state === 'PENDING_APPROVAL';
  const text = textOf(props.task.data, 'text');
  const [rows, setRows] = useDraftState<Row[]>(
    'rows',
    () => normalisationRows(props.task, approval),
    listDraft(),
  );
  const update = (id: string, change: Partial<Row>) =>
    setRows((current) =>
      current.map((row) => (row.entity.id === id ? { ...row, ...change } : row)),
    );

  const build = () =>
    checkSubmission(approval ? 'normalisation.approval' : 'normalisation', {
      normalised: {
        entities: rows.map((row) => ({
          id: row.entity.id,
          conceptId: row.unable ? null : (row.concept?.conceptId ?? null),
          conceptName: row.unable ? null : (row.concept?.name ?? null),
          state:
            row.entity.state === 'DELETED'
              ? 'DELETED'
              : approval && row.checked
                ? 'APPROVED'
                : 'NORMALISED',
          ...(row.unable ? { unableToNormalise: true } : {}),
        })),
      },
    });

  return (
    <TaskLayout
      {...props}
      title="Normalisation Job"
      build={build}
      ready={normalisationReady(rows, approval)}
    >
      <Stack spacing={2}>
        <AnnotatedText text={text} entities={rows.map((row) => row.entity)} />
        {rows.length === 0 ? (
          <Typography color="text.secondary">This text has no entities to normalise.</Typography>
        ) : (
          <Table size="small" aria-label="Entities">
            <TableHead>
              <TableRow>
                {approval ? <TableCell padding="checkbox">Checked</TableCell> : null}
                <TableCell>Entity</TableCell>
                <TableCell>Category</TableCell>
                <TableCell>Concept</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.entity.id}>
                  {approval ? (
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={row.checked}
                        onChange={(event) =>
                          update(row.entity.id, { checked: event.target.checked })
                        }
                        slotProps={{ input: { 'aria-label': `Checked ${row.entity.extract}` } }}
                      />
                    </TableCell>
                  ) : null}
                  <TableCell>{row.entity.extract}</TableCell>
                  <TableCell>{row.entity.category}</TableCell>
                  <TableCell sx={{ minWidth: 260 }}>
                    <ConceptPicker
                      label={rowLabel('Concept', row.entity.extract)}
                      value={row.concept}
                      initialText={row.concept?.name ?? row.entity.extract}
                      disabled={row.unable}
                      // The entity's words are only the search: say so until a concept is chosen.
                      {...(row.concept || row.unable
                        ? {}
                        : { helperText: 'No concept chosen: pick one from the list.' })}
                      onChange={(concept) => update(row.entity.id, { concept })}
                      errorMessage={NORMALISED_CONCEPTS_LOAD_ERROR}
                    />
                  </TableCell>
                  <TableCell>
                    <FormControlLabel
                      control={
                        <Checkbox
                          checked={row.unable}
                          onChange={(event) =>
                            update(row.entity.id, { unable: event.target.checked })
                          }
                          slotProps={{
                            input: { 'aria-label': `Unable to normalise ${row.entity.extract}` },
                          }}
                        />
                      }
                      label="Unable to normalise"
                      slotProps={{ typography: { variant: 'body2' } }}
                    />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Stack>
    </TaskLayout>
  );
}
