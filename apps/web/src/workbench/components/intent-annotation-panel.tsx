import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { INTENT_CODES, INTENTS } from '@loopdesk/contracts/category-menus.ts';
import type { AnnotationEntity } from '@loopdesk/contracts/workbench-payloads.ts';
import { messageMenu } from '@loopdesk/workbench/category-menu.ts';
import { INTENT_CATEGORY } from '@loopdesk/workbench/entities.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { categoryName, highlightLabel, sentenceCase } from '@loopdesk/workbench/labels.ts';
import type { MenuEntry } from '@loopdesk/workbench/menu.ts';
import { buildIntentSubmission } from '@loopdesk/workbench/payloads.ts';
import { chooseIntent, intentEntities } from '@loopdesk/workbench/target.ts';
import { validateAgendaStep, validateAgendaSubmit } from '@loopdesk/workbench/validation.ts';
import { useMemo, useRef, useState } from 'react';
import { sendException } from '../utils/exception.ts';
import { useIntentContextMenu } from '../api/get-context-menu.ts';
import { postMessageOperation } from '../api/post-message-operation.ts';
import { errorMessage } from '../../lib/http-error.ts';
import { AnnotatedText } from './annotated-text.tsx';
import { HotkeyMenu } from './hotkey-menu.tsx';
import { useToast } from '../../components/toast-context.ts';
import { ExceptionButton } from './exception-button.tsx';
import { LastQuestion } from './last-question.tsx';
import type { PanelProps } from './panel-props.ts';
import { useAnnotationMenu } from '../hooks/use-annotation-menu.ts';
import { useSubmitShortcut } from '../hooks/use-submit-shortcut.ts';

/** Headings of the two steps (spec 1 §2 names the steps, not their titles). */
export const AGENDA_STEP_HEADING = 'Annotate the agenda intent';
export const ENTITY_STEP_HEADING = 'Annotate the entities';
/** An intent job without the ids the intent submission names. */
export const MISSING_INTENT_IDS_MESSAGE =
  'This job has no conversation, message or patient id: raise an exception instead.';
/** An intent job without a patient message (ours). */
export const MISSING_INTENT_TEXT_MESSAGE =
  'This job has no patient message to annotate (lastTurn.content): raise an exception instead.';
/** Shown while the assistant classifies the message (message.intents). */
export const ASKING_ASSISTANT_TEXT = 'Sending the agenda to the assistant…';

/** The fixed intents of the contracts, as menu entries. */
const FIXED_INTENTS: MenuEntry[] = INTENTS.map((intent) => ({
  label: intent.label,
  category: intent.code,
}));

/** The intents a job offers (`data.intents`: codes, or `{code, description}`), else the fixed set. */
function intentMenu(value: unknown): MenuEntry[] {
  if (!Array.isArray(value)) {
    return FIXED_INTENTS;
  }
  const entries = (value as unknown[]).flatMap((item): MenuEntry[] => {
    if (typeof item === 'string' && item !== '') {
      return [{ label: categoryName(item), category: item }];
    }
    if (typeof item === 'object' && item !== null) {
      const { code, description } = item as { code?: unknown; description?: unknown };
      if (typeof code === 'string' && code !== '') {
        return [
          {
            label: typeof description === 'string' ? sentenceCase(description) : categoryName(code),
            category: code,
          },
        ];
      }
    }
    return [];
  });
  return entries.length > 0 ? entries : FIXED_INTENTS;
}

/**
 * The two-step flow of intent.classification.job (spec 1 §4): step 0 annotates the agenda intent
 * of the utterance, step 1 its entities with the agenda intent's menu (Back returns to step 0).
 * Submit sends the intent submission `{message {conversationId, messageId, userId}, entities}` to
 * the assistant (message.intents) and submits the event it answers with (spec 1 §7).
 */
export function IntentAnnotationPanel({ job, submit, busy }: PanelProps) {
  const toast = useToast();
  const view = useMemo(() => readMessageJob(job.data), [job.data]);
  const intents = useMemo(() => intentMenu(job.data.intents), [job.data.intents]);
  const intentNames = useMemo(
    () => [
      ...new Set([INTENT_CATEGORY, ...INTENT_CODES, ...intents.map((e) => e.category ?? e.label)]),
    ],
    [intents],
  );
  const [step, setStep] = useState<0 | 1>(0);
  const [entities, setEntities] = useState<AnnotationEntity[]>(() => [...view.entities]);
  const [asking, setAsking] = useState(false);
  const agenda = chooseIntent(
    intentEntities(entities, intentNames).map((entity) => entity.category),
  );
  const agendaMenu = useIntentContextMenu(step === 1 ? agenda : undefined, view.tenant);
  const entityMenu = useMemo(
    () => messageMenu(view, agendaMenu, 'message-annotation'),
    [view, agendaMenu],
  );
  const menu = step === 0 ? intents : entityMenu;
  // Highlights and the agenda read as the menus do: readable names in sentence case (issue 20).
  const nameOf = useMemo(() => {
    const names = new Map(intents.map((entry) => [entry.category ?? entry.label, entry.label]));
    return (code: string) => names.get(code) ?? categoryName(code);
  }, [intents]);
  const labelOf = useMemo(
    () => (entity: AnnotationEntity) =>
      entity.presence === undefined ? nameOf(entity.category) : highlightLabel(entity),
    [nameOf],
  );
  const blocked = busy || asking;

  const selection = useAnnotationMenu({
    text: view.text,
    entities,
    setEntities,
    enabled: menu.length > 0 && !blocked,
  });
  const { pending } = selection;

  const agendaError = (): string | null =>
    validateAgendaStep(entities) ?? validateAgendaSubmit(entities, intentNames);

  const onNext = () => {
    const error = agendaError();
    if (error !== null) {
      toast.error(error);
      return;
    }
    selection.close();
    setStep(1);
  };
  const onSubmit = async () => {
    const error = agendaError();
    if (error !== null) {
      toast.error(error);
      return;
    }
    if (!view.message || view.userId === undefined) {
      toast.error(MISSING_INTENT_IDS_MESSAGE);
      return;
    }
    setAsking(true);
    try {
      const answered = await postMessageOperation(
        'intents',
        view.tenant ?? job.data.tenant,
        buildIntentSubmission({ message: view.message, userId: view.userId, entities }),
      );
      submit(answered.type, answered.data);
    } catch (failure) {
      toast.error(errorMessage(failure));
    } finally {
      setAsking(false);
    }
  };
  const raise = () => sendException(job, view, submit);
  // Ctrl+Enter: Next on the agenda step, Submit on the entities step.
  const panelRef = useRef<HTMLElement>(null);
  useSubmitShortcut(
    () => {
      if (blocked) {
        return;
      }
      if (step === 0) {
        onNext();
      } else {
        void onSubmit();
      }
    },
    panelRef,
    step,
  );

  if (view.text === '') {
    return (
      <Box component="section" aria-label="Job">
        <LastQuestion question={view.lastQuestion} />
        <Typography role="alert" sx={{ mb: 2 }}>
          {MISSING_INTENT_TEXT_MESSAGE}
        </Typography>
        <ExceptionButton onRaise={raise} disabled={busy} />
      </Box>
    );
  }

  return (
    <Box ref={panelRef} component="section" aria-label="Job" aria-busy={blocked}>
      <LastQuestion question={view.lastQuestion} />
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 2 }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {step === 0 ? AGENDA_STEP_HEADING : ENTITY_STEP_HEADING}
        </Typography>
        <Typography component="span" sx={{ color: 'text.secondary' }}>
          Step {step + 1} of 2
        </Typography>
        <Button disabled={blocked} onClick={selection.clear}>
          Clear
        </Button>
      </Stack>
      {step === 1 && agenda !== undefined ? (
        <Typography sx={{ mb: 1 }}>Agenda: {nameOf(agenda)}</Typography>
      ) : null}
      <AnnotatedText
        text={view.text}
        entities={entities}
        labelOf={labelOf}
        nameOf={nameOf}
        onDelete={selection.onDelete}
        onSelect={selection.onSelect}
        onDeselect={selection.onDeselect}
        autoFocus
      />
      {pending ? (
        <HotkeyMenu
          key={`${step}:${pending.key}`}
          entries={menu}
          anchor={pending.anchor}
          onAnnotate={selection.annotate}
          onClose={selection.close}
        />
      ) : null}
      {asking ? (
        <Typography role="status" sx={{ mt: 2, color: 'text.secondary' }}>
          {ASKING_ASSISTANT_TEXT}
        </Typography>
      ) : null}
      <Stack direction="row" sx={{ mt: 3, gap: 2 }}>
        {step === 1 ? (
          <Button
            disabled={blocked}
            onClick={() => {
              selection.close();
              setStep(0);
            }}
          >
            Back
          </Button>
        ) : null}
        <ExceptionButton onRaise={raise} disabled={blocked} />
        {step === 0 ? (
          <Button variant="contained" onClick={onNext} disabled={blocked}>
            Next
          </Button>
        ) : (
          <Button variant="contained" onClick={() => void onSubmit()} disabled={blocked}>
            Submit
          </Button>
        )}
      </Stack>
    </Box>
  );
}
