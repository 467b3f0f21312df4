import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { EXCEPTION_TEXTS } from '@loopdesk/contracts/exceptions.ts';
import { readMessageJob } from '@loopdesk/workbench/job-data.ts';
import { COMPLETE_SLOT_CODE } from '@loopdesk/workbench/validation.ts';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { JobPanel } from '../../../workbench/components/job-panel.tsx';
import type { SocketConstructor } from '../../../lib/socket/technician-socket.ts';
import { SessionFooter } from '../../../workbench/components/session-footer.tsx';
import { useExceptionDesk } from '../hooks/use-exception-desk.ts';
import { useTranscript } from '../hooks/use-transcript.ts';
import { AppointmentDialog } from './appointment-dialog.tsx';
import { AvatarQueue } from './avatar-queue.tsx';
import { CompleteTaskPanel } from './complete-task-panel.tsx';
import { ManualInput } from './manual-input.tsx';
import { HAND_BACK, PatientPane } from './patient-pane.tsx';
import { SoundControl } from './sound-control.tsx';
import { Transcript } from './transcript.tsx';
import { WhyHere, type DeskTask } from './why-here.tsx';

/** Shown while paused (the exception screen has no text of its own in the spec). */
export const PAUSED_TEXT = 'Paused click resume to continue';
/** Why the composer is disabled, under it. */
export const COMPOSER_PAUSED = 'Paused: press Resume to reply.';
export const COMPOSER_NO_CONVERSATION = 'No conversation on screen: nothing to reply to.';

export interface ExceptionScreenProps {
  /** Tests inject a fake WebSocket; defaults to the browser's. */
  WebSocket?: SocketConstructor;
}

/**
 * The Exception Jobs screen (spec 2 §2, issue 20): a left conversation pane (why the conversation
 * is here, the current task or what the reviewer waits for), a right pane (the patient, the end
 * and handback actions in one row, the live transcript with the manual input under it, as in
 * Chatwoot) and the queue rail; session counts and Pause/Resume below.
 */
export function ExceptionScreen({ WebSocket }: ExceptionScreenProps) {
  const desk = useExceptionDesk(WebSocket ? { WebSocket } : {});
  const conversation = desk.conversation;
  const transcript = useTranscript(
    conversation?.conversationId ?? null,
    conversation?.tenant ?? null,
    desk.messageTick,
  );
  const [dialog, setDialog] = useState<'schedule' | 'terminate' | 'handback' | null>(null);
  const { session } = desk;
  const paused = session.status !== 'on' || session.state === 'paused';

  // The task shown belongs to the conversation on screen (the server sends only those).
  const job =
    session.job && conversation && session.job.data.conversationId === conversation.conversationId
      ? session.job
      : null;
  // The left pane keeps each conversation's latest task: the job the assistant was doing.
  const [tasks, setTasks] = useState<ReadonlyMap<string, DeskTask>>(new Map());
  const jobConversation = job?.data.conversationId;
  if (job && typeof jobConversation === 'string' && tasks.get(jobConversation) !== job) {
    setTasks(new Map(tasks).set(jobConversation, job));
  }
  const lastTask = (conversationId: string) => tasks.get(conversationId) ?? null;
  let task;
  if (paused) {
    task = <Typography role="status">{PAUSED_TEXT}</Typography>;
  } else if (!conversation) {
    task = <Typography role="status">{EXCEPTION_TEXTS.waitingForConversation}</Typography>;
  } else if (job) {
    task =
      readMessageJob(job.data).slotSpecification?.code === COMPLETE_SLOT_CODE ? (
        <CompleteTaskPanel
          job={job}
          submit={(type, data) => session.submit(type, data)}
          busy={session.busy}
          exception
        />
      ) : (
        <JobPanel
          job={job}
          submit={(type, data) => session.submit(type, data)}
          busy={session.busy}
          exception
        />
      );
  } else {
    task = <Typography role="status">{EXCEPTION_TEXTS.waitingForMessage}</Typography>;
  }

  const name = conversation ? `${conversation.name.given} ${conversation.name.family}`.trim() : '';
  const composer = (
    <ManualInput
      key={desk.repliedTick}
      autoFocus={desk.repliedTick > 0}
      disabled={paused || !conversation}
      disabledReason={paused ? COMPOSER_PAUSED : COMPOSER_NO_CONVERSATION}
      onSend={(text) => desk.reply(text)}
    />
  );
  const rail = (
    <AvatarQueue
      conversations={desk.conversations}
      current={desk.current}
      onSwitch={(id) => desk.switchTo(id)}
    />
  );

  return (
    <Box
      component="section"
      aria-label="Exception Jobs"
      sx={{ display: 'flex', flexDirection: 'column', gap: 2, minHeight: 560 }}
    >
      <Stack
        direction="row"
        sx={{ gap: 2, height: 'calc(100vh - 200px)', minHeight: 420, alignItems: 'stretch' }}
      >
        <Stack
          component="section"
          aria-label="Conversation"
          sx={{ gap: 1.5, width: '25%', maxWidth: 420, minWidth: 240, flexShrink: 0, minHeight: 0 }}
        >
          <Stack
            component="header"
            direction="row"
            sx={{ alignItems: 'center', gap: 1, flexWrap: 'wrap', minHeight: 32 }}
          >
            <Typography component="span" sx={{ color: 'text.secondary' }}>
              Connection:
            </Typography>
            <Box
              component="output"
              aria-label="Connection status"
              sx={{ color: session.status === 'on' ? 'success.main' : 'warning.main' }}
            >
              {session.status}
            </Box>
            <Box sx={{ flexGrow: 1 }} />
            <SoundControl />
          </Stack>
          {conversation && !paused ? (
            <WhyHere conversation={conversation} job={lastTask(conversation.conversationId)} />
          ) : null}
          <Box sx={{ flexGrow: 1, overflow: 'auto', minHeight: 0 }}>{task}</Box>
        </Stack>
        <Stack
          sx={{
            flex: 1,
            minWidth: 0,
            minHeight: 0,
            borderLeft: 1,
            borderColor: 'divider',
            pl: 2,
          }}
        >
          {conversation ? (
            <PatientPane
              conversation={conversation}
              onSchedule={() => setDialog('schedule')}
              onTerminate={() => setDialog('terminate')}
              onHandBack={() => setDialog('handback')}
            >
              <Stack direction="row" sx={{ gap: 2, flex: 1, minHeight: 0 }}>
                <Stack sx={{ gap: 1, flex: 1, minWidth: 0, minHeight: 0 }}>
                  <Transcript key={conversation.conversationId} transcript={transcript} />
                  {composer}
                </Stack>
                {rail}
              </Stack>
            </PatientPane>
          ) : (
            <Stack direction="row" sx={{ gap: 2, flex: 1, minHeight: 0 }}>
              <Stack sx={{ gap: 1, flex: 1, minWidth: 0, justifyContent: 'flex-end' }}>
                {composer}
              </Stack>
              {rail}
            </Stack>
          )}
        </Stack>
      </Stack>
      <SessionFooter
        paused={paused}
        state={`${session.status}:${session.state}`}
        onResume={() => desk.resume()}
        onPause={() => desk.pause()}
      />
      {conversation && dialog === 'schedule' ? (
        <AppointmentDialog
          open
          conversationId={conversation.conversationId}
          patientName={name}
          onClose={() => setDialog(null)}
          onScheduled={(appointment) => {
            setDialog(null);
            desk.end(conversation.conversationId, 'END', appointment.id);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={conversation !== null && dialog === 'terminate'}
        title={EXCEPTION_TEXTS.terminate}
        message={`End the encounter with ${name} without an appointment? The assistant closes the conversation.`}
        confirmLabel="Terminate"
        onConfirm={() => {
          setDialog(null);
          if (conversation) {
            desk.end(conversation.conversationId, 'TERMINATE');
          }
        }}
        onCancel={() => setDialog(null)}
      />
      <ConfirmDialog
        open={conversation !== null && dialog === 'handback'}
        title={HAND_BACK}
        message={`Give the conversation with ${name} back to the assistant? It leaves your screen, its open tasks are cancelled, and the assistant writes to the patient again.`}
        confirmLabel="Hand back"
        onConfirm={() => {
          setDialog(null);
          if (conversation) {
            desk.handBack(conversation.conversationId);
          }
        }}
        onCancel={() => setDialog(null)}
      />
    </Box>
  );
}
