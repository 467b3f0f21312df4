import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { GOAL_INTENT_CODES } from '@loopdesk/contracts/category-menus.ts';
import type {
  AnnotationEntity,
  Presence,
  Rewording,
} from '@loopdesk/contracts/workbench-payloads.ts';
import {
  annotationScreenOf,
  derivedCategories,
  intentCategoriesOf,
  messageMenu,
} from '@loopdesk/workbench/category-menu.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { categoryName, highlightLabel } from '@loopdesk/workbench/labels.ts';
import { booleanOptions, isOptionalSlot } from '@loopdesk/workbench/menu.ts';
import {
  buildAnnotationPayload,
  buildRephrasePayload,
  slotValue,
} from '@loopdesk/workbench/payloads.ts';
import {
  DEFAULT_EXCEPTION_LABEL,
  initialEntities,
  purposePrefix,
  showsMenu,
  submitAction,
} from '@loopdesk/workbench/purposes.ts';
import { rewordTargets, type RewordTarget } from '@loopdesk/workbench/reword.ts';
import {
  isBooleanSlot,
  validateAnnotationSubmit,
  validateException,
} from '@loopdesk/workbench/validation.ts';
import { useMemo, useRef, useState } from 'react';
import { customEventLabel, sendException } from '../utils/exception.ts';
import { useIntentContextMenu } from '../api/get-context-menu.ts';
import { AnnotatedText } from './annotated-text.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { ExceptionButton } from './exception-button.tsx';
import { HotkeyMenu } from './hotkey-menu.tsx';
import { useToast } from '../../components/toast-context.ts';
import { LastQuestion } from './last-question.tsx';
import type { PanelProps } from './panel-props.ts';
import { useAnnotationMenu } from '../hooks/use-annotation-menu.ts';
import { useSubmitShortcut } from '../hooks/use-submit-shortcut.ts';
import { useDigitKeys } from '../hooks/use-digit-keys.ts';
import { HotkeyHint } from './hotkey-hint.tsx';
import { RephraseScreen } from './rephrase-screen.tsx';
import { RewordStep } from './reword-step.tsx';

/** Spec 1 §2: shown instead of the panel when the job has no slot specification. */
export const INVALID_STATE_MESSAGE =
  'End and schedule an appointment or terminate. The conversation is in an invalid state.';
/** A job without a patient message has nothing to annotate (ours). */
export const MISSING_MESSAGE_TEXT =
  'This job has no patient message to annotate (lastTurn.content): raise an exception instead.';
/** A job without a conversation or message id cannot be answered, only raised as an exception. */
export const MISSING_IDS_MESSAGE =
  'This job has no conversation or message id: raise an exception instead.';
/** A rephrase needs the patient (recipient) and the message replied to. */
export const MISSING_RECIPIENT_MESSAGE =
  'This job has no patient or message id to rephrase to: raise an exception instead.';
/** Spec 1 §2 older annotation screen: the optional slot's skip button and its confirmation. */
// Spelt as spec 1 §2 quotes it (the button shows it in capitals).
export const PATIENT_UNSURE_LABEL = 'patient unsure';
export const PATIENT_UNSURE_TITLE = 'Patient unsure?';
export const PATIENT_UNSURE_CONFIRM = 'The slot is submitted as skipped, without your annotations.';

/** What the panel shows: the annotation, the reword step before the submit, or the rephrase screen. */
type Mode =
  | { readonly step: 'annotate' }
  | { readonly step: 'reword'; readonly targets: readonly RewordTarget[] }
  | { readonly step: 'rephrase' };

/** The presence of the latest annotation of the slot itself (a boolean slot's Endorse / Deny / Unsure). */
function presenceOf(entities: readonly AnnotationEntity[], slotCode: string): Presence | null {
  const answers = entities.filter((e) => e.category === slotCode && e.presence !== undefined);
  return answers.at(-1)?.presence ?? null;
}

/**
 * The message annotation panel (spec 1 §2 "Annotation screen", job type message.annotation.job,
 * and the exception desk's exception.job): select text, pick a category from the hotkey menu, then
 * submit or raise an exception. A job with a purpose shows the generic screen (a boolean slot is
 * answered from the menu: Endorse / Deny / Unsure); a job without one shows the older screen (an
 * endorses/denies toggle, patient unsure for optional slots). All the rules are the workbench's.
 */
export function MessageAnnotationPanel({ job, submit, busy, exception = false }: PanelProps) {
  const toast = useToast();
  const view = useMemo(() => readMessageJob(job.data), [job.data]);
  const screen = annotationScreenOf(view, exception);
  // The job's custom exception event (spec 1 §4), when it sets a label for it.
  const customLabel = customEventLabel(job, view);
  const contextMenu = useIntentContextMenu(view.intent, view.tenant);
  const menu = useMemo(() => messageMenu(view, contextMenu, screen), [view, contextMenu, screen]);
  const rules = useMemo(
    () => ({ intentCategories: intentCategoriesOf(), derived: derivedCategories(contextMenu) }),
    [contextMenu],
  );
  const [entities, setEntities] = useState<AnnotationEntity[]>(() =>
    initialEntities(view.purpose, view.entities),
  );
  const [toggleChoice, setToggleChoice] = useState<Presence | null>(null);
  const [confirmingUnsure, setConfirmingUnsure] = useState(false);
  const [mode, setMode] = useState<Mode>({ step: 'annotate' });
  const spec = view.slotSpecification;
  // The generic screen answers a boolean slot from the menu; the older and exception screens
  // with their toggle.
  const usesToggle = screen !== 'message-annotation';
  const booleanChoice = spec && !usesToggle ? presenceOf(entities, spec.code) : toggleChoice;
  const selection = useAnnotationMenu({
    text: view.text,
    entities,
    setEntities,
    enabled: showsMenu(view.purpose) && menu.length > 0 && !busy,
  });
  const { pending } = selection;
  // Highlight labels: the category's readable name, and a boolean answer's presence (issue 20).
  const { labelOf, nameOf } = useMemo(() => {
    const specifications = [...(spec ? [spec] : []), ...view.relatedSlotSpecifications];
    return {
      labelOf: (entity: AnnotationEntity) => highlightLabel(entity, specifications),
      nameOf: (category: string) => categoryName(category, specifications),
    };
  }, [spec, view.relatedSlotSpecifications]);
  // The older screen's Endorse / Deny / Unsure answer to 1, 2, 3 while the menu is closed.
  const toggleOptions = spec && usesToggle && isBooleanSlot(spec) ? booleanOptions(spec) : [];
  useDigitKeys(
    toggleOptions.length,
    (index) => setToggleChoice((toggleOptions[index]?.category as Presence | undefined) ?? null),
    mode.step === 'annotate' && pending === null && !busy,
  );

  /** Sends the message.annotation; `rewordings` ride along after the reword step. */
  const send = (options: { skipped: boolean; rewordings?: readonly Rewording[] }) => {
    if (!spec || !view.message || !view.slot) {
      toast.error(MISSING_IDS_MESSAGE);
      return;
    }
    const payload = buildAnnotationPayload({
      action: submitAction(view.purpose, view.goal),
      message: view.message,
      ...(view.userId === undefined ? {} : { userId: view.userId }),
      entities: options.skipped ? [] : entities,
      slot: { ...view.slot, type: spec.data_type ?? '' },
      value: slotValue({
        slotCode: spec.code,
        ...(spec.data_type === undefined ? {} : { dataType: spec.data_type }),
        booleanChoice,
        skipped: options.skipped,
      }),
    });
    // The hook shows its own refusals ('Already processing previous submission.', not open).
    submit(
      'message.annotation',
      options.rewordings === undefined ? payload : { ...payload, rewordings: options.rewordings },
    );
  };

  const onSubmit = () => {
    if (!spec || mode.step !== 'annotate') {
      return;
    }
    // Verify-answered has no menu and starts empty: its submit says the question was answered.
    const error =
      view.purpose === 'verify-answered'
        ? null
        : validateAnnotationSubmit({
            screen,
            slotSpecification: spec,
            entities,
            booleanChoice,
            ...rules,
          });
    if (error !== null) {
      toast.error(error);
      return;
    }
    if (!view.message || !view.slot) {
      toast.error(MISSING_IDS_MESSAGE);
      return;
    }
    const targets =
      booleanChoice === 'unsure'
        ? []
        : rewordTargets(entities, {
            slotCode: spec.code,
            goalIntent: view.goal !== undefined && GOAL_INTENT_CODES.includes(view.goal),
            ...(view.originalJob === undefined ? {} : { originalJob: view.originalJob }),
          });
    if (targets.length > 0) {
      selection.close();
      setMode({ step: 'reword', targets });
      return;
    }
    send({ skipped: false });
  };

  const onPatientUnsure = () => {
    setConfirmingUnsure(false);
    if (!spec) {
      return;
    }
    const error = validateAnnotationSubmit({
      screen,
      slotSpecification: spec,
      entities: [],
      skipped: true,
    });
    if (error !== null) {
      toast.error(error);
      return;
    }
    send({ skipped: true });
  };

  const onRephrase = (question: string) => {
    if (!view.message || view.userId === undefined) {
      toast.error(MISSING_RECIPIENT_MESSAGE);
      return;
    }
    submit(
      'message.rephrase.question',
      buildRephrasePayload({
        conversationId: view.message.conversationId,
        recipientId: view.userId,
        question,
        replyTo: view.message.messageId,
      }),
    );
  };

  const onException = () => {
    // The custom exception event asks the assistant to forget the message: a discard, which a
    // correctly annotated message does not refuse (spec 1 §5; docs/decisions.md issue 4).
    const refusal = spec
      ? validateException(entities, {
          slotCode: spec.code,
          ...rules,
          discard: customLabel !== undefined,
        })
      : null;
    if (refusal !== null) {
      toast.error(refusal);
      return;
    }
    selection.close();
    // Spec 1 §4 "Exception flow": with rephrase options and no custom exception label the rephrase
    // screen comes first (its own Exception sends the exception); otherwise the exception is sent.
    if (view.rephraseOptions.length > 0 && customLabel === undefined) {
      setMode({ step: 'rephrase' });
      return;
    }
    // Sent at once, as on every screen (docs/decisions.md "Usability (issue 20): one Exception").
    raiseException();
  };

  const raiseException = () => sendException(job, view, submit);

  // Ctrl+Enter submits from anywhere on the screen.
  const panelRef = useRef<HTMLElement>(null);
  useSubmitShortcut(onSubmit, panelRef, mode.step);

  const exceptionButton = (
    <ExceptionButton
      onRaise={onException}
      label={customLabel ?? DEFAULT_EXCEPTION_LABEL}
      message="The message goes to the exception desk without your annotations."
    />
  );
  const lastQuestion = <LastQuestion question={view.lastQuestion} />;

  if (mode.step === 'rephrase') {
    return (
      <Box ref={panelRef} component="section" aria-label="Job" aria-busy={busy}>
        {lastQuestion}
        <RephraseScreen
          options={view.rephraseOptions}
          busy={busy}
          onBack={() => setMode({ step: 'annotate' })}
          onRephrase={onRephrase}
          onException={raiseException}
        />
      </Box>
    );
  }

  if (!spec || view.text === '') {
    return (
      <Box ref={panelRef} component="section" aria-label="Job">
        {lastQuestion}
        <Typography role="alert" sx={{ mb: 2 }}>
          {spec ? MISSING_MESSAGE_TEXT : INVALID_STATE_MESSAGE}
        </Typography>
        {exceptionButton}
      </Box>
    );
  }

  const prefix = purposePrefix(view.purpose);
  const description = spec.short_description ?? spec.code;
  const title = prefix === '' ? `Annotate ${description}` : `${prefix}${description}`;

  if (mode.step === 'reword') {
    return (
      <Box ref={panelRef} component="section" aria-label="Job" aria-busy={busy}>
        {lastQuestion}
        <RewordStep
          targets={mode.targets}
          busy={busy}
          onBack={() => setMode({ step: 'annotate' })}
          onSubmit={(rewordings) => send({ skipped: false, rewordings })}
        />
      </Box>
    );
  }

  return (
    <Box ref={panelRef} component="section" aria-label="Job" aria-busy={busy}>
      {lastQuestion}
      <Stack direction="row" sx={{ alignItems: 'center', mb: 1, gap: 2 }}>
        <Typography variant="h5" component="h2" sx={{ flexGrow: 1 }}>
          {title}
        </Typography>
        <Button disabled={busy} onClick={selection.clear}>
          Clear
        </Button>
      </Stack>
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
          key={pending.key}
          entries={menu}
          anchor={pending.anchor}
          onAnnotate={selection.annotate}
          onClose={selection.close}
        />
      ) : null}
      {toggleOptions.length > 0 ? (
        <ToggleButtonGroup
          exclusive
          aria-label="Answer"
          value={toggleChoice}
          onChange={(_event, value: Presence | null) => setToggleChoice(value)}
          sx={{ mt: 2 }}
        >
          {toggleOptions.map((option, index) => (
            <ToggleButton
              key={option.label}
              value={option.category ?? option.label}
              aria-label={option.label}
              aria-keyshortcuts={String(index + 1)}
            >
              <HotkeyHint hotkey={String(index + 1)} />
              {option.label}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      ) : null}
      <Stack direction="row" sx={{ mt: 3, gap: 2 }}>
        {exceptionButton}
        {screen === 'legacy-annotation' && isOptionalSlot(spec) ? (
          <Button variant="outlined" onClick={() => setConfirmingUnsure(true)} disabled={busy}>
            {PATIENT_UNSURE_LABEL}
          </Button>
        ) : null}
        {/* Not disabled while busy: a submit then says 'Already processing previous submission.' */}
        <Button variant="contained" onClick={onSubmit}>
          Submit
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirmingUnsure}
        title={PATIENT_UNSURE_TITLE}
        message={PATIENT_UNSURE_CONFIRM}
        confirmLabel="Submit as unsure"
        disablePortal
        onConfirm={onPatientUnsure}
        onCancel={() => setConfirmingUnsure(false)}
      />
    </Box>
  );
}
