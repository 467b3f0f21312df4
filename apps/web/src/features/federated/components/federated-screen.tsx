import FullscreenIcon from '@mui/icons-material/Fullscreen';
import FullscreenExitIcon from '@mui/icons-material/FullscreenExit';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { useErrorToast } from '../../../components/use-error-toast.ts';
import type { SocketConstructor } from '../../../lib/socket/technician-socket.ts';
import { useTechnicianSession } from '../../../lib/socket/use-technician-session.ts';
import { SessionFooter } from '../../../workbench/components/session-footer.tsx';
import { JobPanel } from '../../../workbench/components/job-panel.tsx';
import { typingIn } from '../../../workbench/utils/typing-in.ts';
import { ShortcutsDialog } from '../../../components/shortcuts-dialog.tsx';
import { SHORTCUTS } from '../../../workbench/components/shortcuts.ts';
import { useFederatedQueueSize } from '../api/get-federated-queue-size.ts';

/** Spec 1 §2 status texts of the federated screen. */
export const WAITING_TEXT = 'Waiting for next message';
export const PAUSED_TEXT = 'Paused click resume to continue';
export const RECONNECT_TEXT = 'Reconnect';
export const FULLSCREEN_UNAVAILABLE_MESSAGE = 'Fullscreen is not available in this browser.';

/** The idle state's counts (issue 20): the jobs waiting and the jobs this session finished. */
export function idleCountsText(waiting: number | null, done: number): string {
  const queue =
    waiting === null
      ? 'Jobs waiting in the federated queue: unknown'
      : `Jobs waiting in the federated queue: ${String(waiting)}`;
  return `${queue} · Jobs done this session: ${String(done)}`;
}

/**
 * Counts the jobs this screen finished: a job that goes after a submission for it (an answer, a
 * rephrase or an exception). A refused submission keeps the job, so it is not counted.
 */
function useJobsDone(jobIds: readonly (string | null)[]) {
  const [done, setDone] = useState(0);
  const submittedFor = useRef(new Set<string>());
  const key = jobIds.join('|');
  useEffect(() => {
    const held = new Set(key.split('|'));
    for (const id of submittedFor.current) {
      if (!held.has(id)) {
        submittedFor.current.delete(id);
        setDone((n) => n + 1);
      }
    }
  }, [key]);
  const submitted = (jobId: string) => submittedFor.current.add(jobId);
  return { done, submitted };
}

function useFullscreen(ref: RefObject<HTMLElement | null>) {
  const toast = useToast();
  const [fullscreen, setFullscreen] = useState(false);
  useEffect(() => {
    const onChange = () => {
      const current = ref.current;
      setFullscreen(current !== null && document.fullscreenElement === current);
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, [ref]);
  const toggle = () => {
    const current = ref.current;
    if (fullscreen) {
      void document.exitFullscreen().catch(() => undefined);
      return;
    }
    if (!current || typeof current.requestFullscreen !== 'function') {
      toast.error(FULLSCREEN_UNAVAILABLE_MESSAGE);
      return;
    }
    current.requestFullscreen().catch(() => toast.error(FULLSCREEN_UNAVAILABLE_MESSAGE));
  };
  return { fullscreen, toggle };
}

export interface FederatedScreenProps {
  /** Tests inject a fake WebSocket; defaults to the browser's. */
  WebSocket?: SocketConstructor;
}

/**
 * The federated jobs screen (spec 1 §2): connection status and fullscreen in the header, the held
 * job's panel or a status text in the body, session counts and Pause/Resume in the footer.
 *
 * It holds two technician sessions as one: the federated socket, and the priority socket (spec 1
 * §7, its address from `/portal-config`) that alone receives the priority queue's
 * `intent.hpi.priority.job`s (docs/decisions.md "Federated workbench"). Resume and Pause act on
 * both; a held priority job is shown first, the federated job (if any) after it.
 */
export function FederatedScreen({ WebSocket }: FederatedScreenProps) {
  const socketOptions = WebSocket ? { WebSocket } : {};
  const federated = useTechnicianSession('federated', socketOptions);
  const priority = useTechnicianSession('priority', socketOptions);
  // A second session (close code 1008): the spec's message stays as a banner, not a toast, and
  // neither Reconnect nor Resume is offered (spec 1 §4 "no reconnect").
  const ended = federated.ended ?? priority.ended;
  // The sessions report socket and server errors; showing them is the screen's (spec 1 §8).
  useErrorToast(ended ? null : federated.error);
  useErrorToast(ended ? null : priority.error);
  // The session whose job is on the screen; the federated one otherwise (status, state).
  const session = priority.job ? priority : federated;
  const containerRef = useRef<HTMLDivElement>(null);
  const { fullscreen, toggle } = useFullscreen(containerRef);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const waiting = useFederatedQueueSize();
  const jobs = useJobsDone([federated.job?.id ?? null, priority.job?.id ?? null]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === '?' && !event.ctrlKey && !event.metaKey && !typingIn(event.target)) {
        event.preventDefault();
        setShortcutsOpen(true);
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // One session for the technician: paused while either connected socket is (a priority socket
  // that dropped and came back is paused until Resume, like the federated one).
  const paused =
    federated.state === 'paused' || (priority.status === 'on' && priority.state === 'paused');
  const resume = () => {
    federated.resume();
    priority.resume();
  };
  const pause = () => {
    federated.pause();
    priority.pause();
  };
  let body;
  if (ended) {
    body = (
      <Alert severity="error" variant="outlined">
        {ended}
      </Alert>
    );
  } else if (session.job) {
    body = (
      <JobPanel
        key={`${session === priority ? 'priority' : 'federated'}:${session.job.id}`}
        job={session.job}
        submit={(type, data) => {
          const result = session.submit(type, data);
          if (result.ok && session.job) {
            jobs.submitted(session.job.id);
          }
          return result;
        }}
        busy={session.busy}
      />
    );
  } else if (federated.status !== 'on') {
    body = (
      <Button variant="outlined" onClick={resume}>
        {RECONNECT_TEXT}
      </Button>
    );
  } else {
    body = (
      <>
        <Typography role="status">{paused ? PAUSED_TEXT : WAITING_TEXT}</Typography>
        <Typography aria-label="Queue and session" sx={{ mt: 1, color: 'text.secondary' }}>
          {idleCountsText(waiting, jobs.done)}
        </Typography>
      </>
    );
  }

  return (
    <Box
      ref={containerRef}
      component="section"
      aria-label="Federated Jobs"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        gap: 2,
        // The footer stays at the bottom of the window: the screen fills the height under the top
        // bar (64 px) and the page padding (2 × 24 px), and the footer sticks to the bottom.
        minHeight: fullscreen ? '100vh' : 'calc(100dvh - 112px)',
        p: fullscreen ? 3 : 0,
        bgcolor: 'background.default',
        // In fullscreen the screen scrolls itself; otherwise the window does (the footer sticks to it).
        overflow: fullscreen ? 'auto' : 'visible',
      }}
    >
      <Stack component="header" direction="row" sx={{ alignItems: 'center', gap: 1 }}>
        <Tooltip title={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}>
          <IconButton aria-label="Fullscreen" aria-pressed={fullscreen} onClick={toggle}>
            {fullscreen ? <FullscreenExitIcon /> : <FullscreenIcon />}
          </IconButton>
        </Tooltip>
        <Typography component="span" sx={{ color: 'text.secondary' }}>
          Connection:
        </Typography>
        <Box
          component="output"
          aria-label="Connection status"
          sx={{ color: federated.status === 'on' ? 'success.main' : 'warning.main' }}
        >
          {federated.status}
        </Box>
      </Stack>
      <Box sx={{ flexGrow: 1 }}>{body}</Box>
      <SessionFooter
        paused={paused}
        state={`${federated.status}:${federated.state}:${priority.status}:${priority.state}`}
        onResume={resume}
        onPause={pause}
        ended={ended !== null}
      />
      <ShortcutsDialog
        open={shortcutsOpen}
        onClose={() => setShortcutsOpen(false)}
        shortcuts={SHORTCUTS}
        disablePortal
      />
    </Box>
  );
}
