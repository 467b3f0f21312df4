import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  RESULT_MINIMUMS,
  type AsyncTask,
  type SubmissionKind,
} from '@loopdesk/contracts/async-jobs.ts';
import type { ReactNode } from 'react';
import {
  ADD_MEDICATION,
  ADD_QUESTION,
  ADD_SYMPTOM,
  COMPLICATIONS_LOAD_ERROR,
  ENTER_COMPLICATION,
  PHRASE_TOO_SHORT,
} from '../utils/messages.ts';
import {
  checkSubmission,
  itemsOf,
  textOf,
  toggled,
  type CheckResult,
  type ListItem,
} from '../utils/task-screens.ts';
import { AddField, AddedList, StrikeList, type AddedItem } from './item-lists.tsx';
import { TaskLayout, type TaskScreenProps } from './task-layout.tsx';
import { idSetDraft, listDraft, useDraftState } from '../hooks/use-draft-state.ts';

/** One list screen: existing items (struck through on approval screens) plus added ones. */
export interface ListScreenConfig {
  title: string;
  kind: SubmissionKind;
  /** The field label of the adder, and the heading of the added list. */
  itemLabel: string;
  /** The heading of the existing items (approval screens). */
  existingLabel: string;
  emptyMessage: string;
  minLength?: number;
  multiline?: boolean;
  concept?: boolean;
  loadError?: string;
  /** The task's existing items; approval screens let them be struck through. */
  existing?: (task: AsyncTask) => ListItem[];
  /** Items the task already has, shown (not editable) on an edit screen so none is added twice. */
  known?: (task: AsyncTask) => ListItem[];
  header: (task: AsyncTask) => ReactNode;
  /** `restored`: items an earlier step struck out that this one keeps after all. */
  body: (removed: string[], added: AddedItem[], restored: string[]) => unknown;
}

/** Shared by every list screen: rephrase, complications, questions, medications, symptoms. */
export function ListTaskScreen({
  config,
  ...props
}: TaskScreenProps & { config: ListScreenConfig }) {
  const existing = config.existing?.(props.task) ?? [];
  // Items an earlier step struck out start struck; unstriking one keeps it after all.
  const [removed, setRemoved] = useDraftState<ReadonlySet<string>>(
    'removed',
    () => new Set(existing.filter((item) => item.struck).map((item) => item.id)),
    idSetDraft,
  );
  const [added, setAdded] = useDraftState<AddedItem[]>('added', () => [], listDraft());

  const toggle = (id: string) => setRemoved((current) => toggled(current, id));

  const build = (): CheckResult => {
    const removedIds = existing
      .filter((item) => removed.has(item.id) && !item.struck)
      .map((item) => item.id);
    const restoredIds = existing
      .filter((item) => item.struck && !removed.has(item.id))
      .map((item) => item.id);
    const kept = existing.filter((item) => !removed.has(item.id)).length;
    // An approval step must leave the pipeline's publish minimum in place (spec 3 §5, §9).
    const minimum = RESULT_MINIMUMS[config.kind];
    if (minimum && kept + added.length < minimum.count) {
      return { ok: false, error: minimum.message };
    }
    return checkSubmission(config.kind, config.body(removedIds, added, restoredIds));
  };

  return (
    <TaskLayout {...props} title={config.title} build={build}>
      <Stack spacing={2}>
        {config.header(props.task)}
        {config.known ? (
          <section aria-label={`Known ${config.existingLabel.toLowerCase()}`}>
            <Typography variant="subtitle2">{`Known ${config.existingLabel.toLowerCase()}`}</Typography>
            <Typography variant="body2" color="text.secondary">
              {config
                .known(props.task)
                .map((item) => item.text)
                .join(', ') || 'None yet.'}
            </Typography>
          </section>
        ) : null}
        {config.existing ? (
          <section aria-label={config.existingLabel}>
            <Typography variant="subtitle2">{config.existingLabel}</Typography>
            <StrikeList
              label={config.existingLabel}
              items={existing}
              removed={removed}
              onToggle={toggle}
            />
          </section>
        ) : null}
        <AddField
          label={config.itemLabel}
          emptyMessage={config.emptyMessage}
          {...(config.minLength ? { minLength: config.minLength } : {})}
          multiline={config.multiline ?? false}
          concept={config.concept ?? false}
          {...(config.loadError ? { loadError: config.loadError } : {})}
          onAdd={(item) => setAdded((current) => [...current, item])}
        />
        <AddedList
          label={`Added ${config.itemLabel.toLowerCase()}s`}
          items={added}
          onRemove={(index) => setAdded((current) => current.filter((_, i) => i !== index))}
        />
      </Stack>
    </TaskLayout>
  );
}

function Field({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Typography>
      <Typography component="span" color="text.secondary">{`${label}: `}</Typography>
      {value}
    </Typography>
  );
}

const conditionHeader = (task: AsyncTask) => (
  <Field
    label="Condition"
    value={textOf(task.data, 'condition') || textOf(task.condition, 'name')}
  />
);

const observationHeader = (task: AsyncTask) => (
  <Field
    label="Observation"
    value={textOf(task.data, 'observation') || textOf(task.data, 'display')}
  />
);

const rephraseHeader = (task: AsyncTask) => (
  <>
    <Field label="Text" value={textOf(task.data, 'text')} />
    {textOf(task.data, 'context') ? (
      <Field label="Context" value={textOf(task.data, 'context')} />
    ) : null}
  </>
);

const complications = (added: AddedItem[]) =>
  added.map((item) => ({ complication: item.text, complicationCUI: item.cui }));
const texts = (added: AddedItem[]) => added.map((item) => ({ text: item.text }));

export const REPHRASE: ListScreenConfig = {
  title: 'Rephrase Job',
  kind: 'rephrase',
  itemLabel: 'Rephrase',
  existingLabel: 'Rephrases',
  emptyMessage: PHRASE_TOO_SHORT,
  minLength: 4,
  header: rephraseHeader,
  body: (_removed, added) => ({ rephrases: added.map((item) => item.text) }),
};

export const COMPLICATIONS: ListScreenConfig = {
  title: 'Condition Complication Job',
  kind: 'complications',
  itemLabel: 'Complication',
  existingLabel: 'Complications',
  emptyMessage: ENTER_COMPLICATION,
  concept: true,
  loadError: COMPLICATIONS_LOAD_ERROR,
  known: (task) => itemsOf(task.condition, 'complications'),
  header: conditionHeader,
  body: (_removed, added) => ({ complications: complications(added) }),
};

export const COMPLICATIONS_APPROVAL: ListScreenConfig = {
  ...COMPLICATIONS,
  known: undefined,
  title: 'Complications Approval Job',
  kind: 'complications.approval',
  existing: (task) => itemsOf(task.condition, 'complications'),
  body: (removed, added, restored) => ({
    complications_removed: removed,
    complications_restored: restored,
    complications: complications(added),
  }),
};

export const QUESTIONS: ListScreenConfig = {
  title: 'Observation Question Job',
  kind: 'questions',
  itemLabel: 'Question',
  existingLabel: 'Questions',
  emptyMessage: ADD_QUESTION,
  header: observationHeader,
  body: (_removed, added) => ({ questions: texts(added) }),
};

export const QUESTIONS_APPROVAL: ListScreenConfig = {
  ...QUESTIONS,
  title: 'Questions Approval Job',
  kind: 'questions.approval',
  existing: (task) => itemsOf(task.data, 'questions'),
  body: (removed, added, restored) => ({
    questions_removed: removed,
    questions_restored: restored,
    questions: texts(added),
  }),
};

export const MEDICATIONS: ListScreenConfig = {
  title: 'Medications Approval',
  kind: 'medications',
  itemLabel: 'Medication',
  existingLabel: 'Medications',
  emptyMessage: ADD_MEDICATION,
  multiline: true,
  existing: (task) => itemsOf(task.condition, 'medications'),
  header: (task) => {
    const reference = textOf(task.data, 'reference');
    return (
      <>
        {conditionHeader(task)}
        {reference ? (
          <Field
            label="Reference"
            value={
              <Link href={reference} target="_blank" rel="noreferrer">
                {reference}
              </Link>
            }
          />
        ) : null}
      </>
    );
  },
  body: (removed, added) => ({ medications_removed: removed, medications: texts(added) }),
};

export const SYMPTOMS: ListScreenConfig = {
  title: 'Symptoms Approval',
  kind: 'symptoms',
  itemLabel: 'Symptom',
  existingLabel: 'Symptoms',
  emptyMessage: ADD_SYMPTOM,
  multiline: true,
  existing: (task) => itemsOf(task.condition, 'symptoms'),
  header: conditionHeader,
  body: (removed, added) => ({ symptoms_removed: removed, symptoms: texts(added) }),
};
