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
import { PatientPane } from './patient-pane.tsx';

/** Shown while paused (the exception screen has no text of its own in the spec). */
export const PAUSED_TEXT = 'Paused click resume to continue';

export interface ExceptionScreenProps {
  /** Tests inject a fake WebSocket; defaults to the browser's. */
  WebSocket?: SocketConstructor;
}

/**
 * The Exception Jobs screen (spec 2 §2): a left conversation pane (the current task, or what the
 * reviewer waits for, and the manual input), a right pane (the patient, the end buttons and the
 * live transcript) and a narrow queue of patient avatars; session counts and Pause/Resume below.
 */
export function ExceptionScreen({ WebSocket }: ExceptionScreenProps) {
  const desk = useExceptionDesk(WebSocket ? { WebSocket } : {});
  const conversation = desk.conversation;
  const transcript = useTranscript(
    conversation?.conversationId ?? null,
    conversation?.tenant ?? null,
    desk.messageTick,
  );
  const [dialog, setDialog] = useState<'schedule' | 'terminate' | null>(null);
  const { session } = desk;
  const paused = session.status !== 'on' || session.state === 'paused';

  // The task shown belongs to the conversation on screen (the server sends only those).
  const job =
    session.job && conversation && session.job.data.conversationId === conversation.conversationId
      ? session.job
      : null;
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

  return (
    <Box
      component="section"
      aria-label="Exception Jobs"
      sx={{ display: 'flex', flexDirection: 'column', gap: 2, minHeight: 560 }}
    >
      <Stack component="header" direction="row" sx={{ alignItems: 'center', gap: 1 }}>
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
      </Stack>
      <Stack
        direction="row"
        sx={{ gap: 2, height: 'calc(100vh - 230px)', minHeight: 420, alignItems: 'stretch' }}
      >
        <Stack component="section" aria-label="Conversation" sx={{ gap: 2, flex: 1, minWidth: 0 }}>
          <Box sx={{ flexGrow: 1, overflow: 'auto', minHeight: 0 }}>{task}</Box>
          <ManualInput
            key={desk.repliedTick}
            autoFocus={desk.repliedTick > 0}
            disabled={paused || !conversation}
            onSend={(text) => desk.reply(text)}
          />
        </Stack>
        {conversation ? (
          <PatientPane
            conversation={conversation}
            transcript={transcript}
            onSchedule={() => setDialog('schedule')}
            onTerminate={() => setDialog('terminate')}
            onHandBack={() => desk.handBack(conversation.conversationId)}
          />
        ) : null}
        <AvatarQueue
          conversations={desk.conversations}
          current={desk.current}
          onSwitch={(id) => desk.switchTo(id)}
        />
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
    </Box>
  );
}
