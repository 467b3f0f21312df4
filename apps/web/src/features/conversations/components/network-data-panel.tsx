import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  Paper,
  Stack,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ConversationDifferentialResponse } from '@loopdesk/contracts/intelligence.ts';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { salientQueryOptions, summaryQueryOptions } from '../api/conversation-queries.ts';
import { SERVICE_UNAVAILABLE } from '../utils/messages.ts';

/** The acuity ring (spec 3 §4): emergent 100, urgent 60, anything else 30. */
export function AcuityRing({ acuity, ring }: { acuity: string | undefined; ring: number }) {
  const colour = acuity === 'emergent' ? 'error' : acuity === 'urgent' ? 'warning' : 'success';
  return (
    <Box
      role="img"
      aria-label={`Acuity: ${acuity ?? 'not known yet'} (ring ${ring}%)`}
      sx={{ position: 'relative', display: 'inline-flex' }}
    >
      <CircularProgress
        aria-hidden
        variant="determinate"
        value={ring}
        size={96}
        thickness={6}
        color={colour}
      />
      <Box
        sx={{
          position: 'absolute',
          inset: 0,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
        }}
      >
        <Typography variant="body2">{acuity ?? '—'}</Typography>
      </Box>
    </Box>
  );
}

/** Differential bars: each condition with its probability. */
export function DifferentialBars({
  inference,
}: {
  inference: ConversationDifferentialResponse['value']['inference'];
}) {
  if (inference.length === 0) {
    return (
      <Typography variant="body2">
        No differential yet: the patient has named no finding.
      </Typography>
    );
  }
  return (
    <List dense aria-label="Differential">
      {inference.slice(0, 8).map((entry) => {
        const percent = Math.round(entry.probability * 100);
        return (
          <ListItem key={entry.conditionId} disableGutters sx={{ display: 'block' }}>
            <Typography variant="body2" id={`ddx-${entry.conditionId}`}>
              {entry.conditionName} — {percent}%
            </Typography>
            <LinearProgress
              variant="determinate"
              value={percent}
              aria-labelledby={`ddx-${entry.conditionId}`}
            />
          </ListItem>
        );
      })}
    </List>
  );
}

function SummaryDialog(props: {
  id: string;
  tenant: string | undefined;
  open: boolean;
  onClose: () => void;
}) {
  const summary = useQuery(summaryQueryOptions({ id: props.id, tenant: props.tenant }, props.open));
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby="summary-title"
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id="summary-title">Clinical summary</DialogTitle>
      <DialogContent>
        {summary.isPending && <CircularProgress aria-label="Loading the clinical summary" />}
        {summary.isError && <Typography role="alert">{errorMessage(summary.error)}</Typography>}
        {summary.data && (
          <Stack spacing={1}>
            <Chip
              label={
                summary.data.reviewed
                  ? `Reviewed by ${summary.data.reviewedBy ?? 'a reviewer'}`
                  : 'Not reviewed: composed from the conversation memory'
              }
              color={summary.data.reviewed ? 'success' : 'warning'}
              sx={{ alignSelf: 'flex-start' }}
            />
            {summary.data.document.sections.map((section, index) => (
              <Typography key={section.id ?? index}>{section.content}</Typography>
            ))}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * 'Network Data' (spec 3 §2): the clinical summary dialog, the acuity ring, the differential bars
 * and the salient features of what the patient said (the text evaluation; 'Service unavailable'
 * when it fails, spec 3 §8).
 */
export function NetworkDataPanel(props: {
  id: string;
  tenant: string | undefined;
  differential: ConversationDifferentialResponse['value'] | undefined;
  patientText: string;
}) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const salient = useQuery(salientQueryOptions(props.id, props.patientText));
  useEffect(() => {
    if (salient.isError) {
      toast.error(SERVICE_UNAVAILABLE);
    }
  }, [salient.isError, toast]);
  const features = salient.data
    ? [
        ...new Map(
          salient.data.entities
            .filter((e) => e.category !== 'onset')
            .map((e) => [`${e.display}:${e.negated}`, e]),
        ).values(),
      ]
    : [];
  return (
    <Paper component="section" aria-labelledby="network-data" sx={{ p: 2 }}>
      <Stack spacing={2}>
        <Stack sx={{ alignItems: 'center', justifyContent: 'space-between' }} direction="row">
          <Typography variant="h6" component="h2" id="network-data">
            Network Data
          </Typography>
          <Button variant="outlined" onClick={() => setOpen(true)}>
            Clinical summary
          </Button>
        </Stack>
        <AcuityRing
          acuity={props.differential?.acuity}
          ring={props.differential?.acuityRing ?? 30}
        />
        <DifferentialBars inference={props.differential?.inference ?? []} />
        <Box>
          <Typography variant="subtitle2" component="h3">
            Salient features
          </Typography>
          {salient.isError && <Typography role="alert">{SERVICE_UNAVAILABLE}</Typography>}
          <Stack
            sx={{ flexWrap: 'wrap', gap: 0.5 }}
            direction="row"

            role="list"
            aria-label="Salient features"
          >
            {features.map((e) => (
              <Chip
                key={`${e.display}:${e.negated}`}
                role="listitem"
                size="small"
                label={e.negated ? `no ${e.display}` : e.display}
                variant={e.negated ? 'outlined' : 'filled'}
              />
            ))}
          </Stack>
        </Box>
      </Stack>
      <SummaryDialog
        id={props.id}
        tenant={props.tenant}
        open={open}
        onClose={() => setOpen(false)}
      />
    </Paper>
  );
}
