import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import {
  NO_TEXT_LAYER_MESSAGE,
  type DataPreparationJob,
} from '@loopdesk/contracts/data-preparation.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { loadReference, loadText } from '../api/files.ts';

/** The left half (spec 2 §2): the original, a PDF in a frame or read-only text. */
export function OriginalView({ job }: { job: DataPreparationJob }) {
  const pdf = job.extraction?.contentType === 'application/pdf';
  const [state, setState] = useState<{ url?: string; text?: string; error?: string }>({});
  useEffect(() => {
    let url: string | undefined;
    let live = true;
    const load = pdf
      ? loadReference(job.key).then((reference) => {
          url = reference.blob ? reference.url : undefined;
          return { url: reference.url };
        })
      : loadText(job.key).then((text) => ({ text }));
    load.then(
      (next) => live && setState(next),
      (error: unknown) => live && setState({ error: errorMessage(error) }),
    );
    return () => {
      live = false;
      if (url) {
        URL.revokeObjectURL(url);
      }
    };
  }, [job.key, pdf]);

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1, height: '100%' }}>
      {job.extraction && !job.extraction.textLayer && pdf && (
        <Alert severity="warning">{NO_TEXT_LAYER_MESSAGE}</Alert>
      )}
      {state.error && <Alert severity="error">{state.error}</Alert>}
      {!state.error && state.url === undefined && state.text === undefined && (
        <CircularProgress aria-label="Loading the document" />
      )}
      {state.url && (
        <Box
          component="iframe"
          title={`Original document ${job.extraction?.fileName ?? job.displayName}`}
          src={state.url}
          sx={{ flex: 1, minHeight: 640, border: 0, bgcolor: 'common.white' }}
        />
      )}
      {state.text !== undefined && (
        <TextField
          label="Original text"
          multiline
          rows={25}
          value={state.text}
          slotProps={{ htmlInput: { readOnly: true } }}
        />
      )}
    </Box>
  );
}
