import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import type { RegisteredDocument } from '@loopdesk/contracts/data-preparation.ts';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { uploadDocument } from '../api/files.ts';

/**
 * The upload of an original (a PDF or UTF-8 text): drop a file here or choose one; a progress bar
 * follows it. For holders of jobs:preparation:perform (the route's privilege).
 */
export function UploadArea({ onUploaded }: { onUploaded: (document: RegisteredDocument) => void }) {
  const toast = useToast();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [over, setOver] = useState(false);

  const upload = (file: File | undefined) => {
    if (!file || progress !== null) {
      return;
    }
    setProgress(0);
    uploadDocument(file, setProgress).then(
      (document) => {
        setProgress(null);
        toast.success(`Uploaded “${document.displayName}”: it is registered for preparation.`);
        onUploaded(document);
      },
      (error: unknown) => {
        setProgress(null);
        toast.error(errorMessage(error));
      },
    );
  };

  return (
    <Box
      role="group"
      aria-label="Upload a document"
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        upload(event.dataTransfer.files[0]);
      }}
      sx={{
        border: 2,
        borderStyle: 'dashed',
        borderColor: over ? 'primary.main' : 'divider',
        borderRadius: 1,
        p: 2,
        textAlign: 'center',
      }}
    >
      <Typography variant="body2" sx={{ mb: 1 }}>
        Drop a guideline document here (PDF or plain text), or
      </Typography>
      <Button
        variant="outlined"
        onClick={() => input.current?.click()}
        disabled={progress !== null}
      >
        Choose a file
      </Button>
      <input
        ref={input}
        type="file"
        hidden
        aria-label="Document file"
        accept="application/pdf,text/plain,.pdf,.txt"
        onChange={(event) => {
          upload(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      {progress !== null && (
        <LinearProgress
          variant="determinate"
          value={Math.round(progress * 100)}
          aria-label="Upload progress"
          sx={{ mt: 2 }}
        />
      )}
    </Box>
  );
}
