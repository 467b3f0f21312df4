import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';

/** Starts a thread for a customer by email, with its first message (spec 3 §7 `_upsert`). */
export function NewThreadForm({
  busy,
  onStart,
}: {
  busy: boolean;
  onStart: (email: string, content: string) => Promise<boolean>;
}) {
  const [email, setEmail] = useState('');
  const [content, setContent] = useState('');
  const ready = email.trim() !== '' && content.trim() !== '' && !busy;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready) {
      return;
    }
    void onStart(email.trim(), content.trim()).then((started) => {
      if (started) {
        setEmail('');
        setContent('');
      }
    });
  };

  return (
    <Box
      component="form"
      aria-label="New thread"
      onSubmit={submit}
      sx={{ display: 'flex', flexDirection: 'column', gap: 1, p: 2 }}
    >
      <TextField
        label="Customer email"
        type="email"
        size="small"
        value={email}
        onChange={(event) => setEmail(event.target.value)}
      />
      <TextField
        label="First message"
        size="small"
        multiline
        maxRows={4}
        value={content}
        onChange={(event) => setContent(event.target.value)}
      />
      <Button type="submit" variant="contained" disabled={!ready}>
        Start thread
      </Button>
    </Box>
  );
}
