import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';
import type { DeepLink } from '@loopdesk/contracts/deep-links.ts';
import { useToast } from '../../../components/toast-context.ts';

/** The signed link: its address with a copy button, a QR code of it, and when it expires. */
export function LinkResult({ link }: { link: DeepLink }) {
  const toast = useToast();
  const [qr, setQr] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    toDataURL(link.url, { margin: 1, width: 220 }).then(
      (data) => {
        if (current) {
          setQr(data);
        }
      },
      () => {
        if (current) {
          setQr(null);
        }
      },
    );
    return () => {
      current = false;
    };
  }, [link.url]);

  const copy = () => {
    navigator.clipboard.writeText(link.url).then(
      () => toast.success('Link copied.'),
      () => toast.error('The link could not be copied: select it and copy it by hand.'),
    );
  };

  return (
    <Paper component="section" aria-label="Signed link" variant="outlined" sx={{ p: 2, mt: 3 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          label="Link"
          value={link.url}
          fullWidth
          slotProps={{ htmlInput: { readOnly: true } }}
          onFocus={(event) => event.target.select()}
        />
        <Button variant="contained" onClick={copy}>
          Copy
        </Button>
      </Box>
      <Typography sx={{ mt: 1 }} color="text.secondary">
        Opens{' '}
        {link.purpose === 'telehealth.appointment'
          ? 'the video visit of the appointment'
          : 'the conversation'}{' '}
        for patient {link.patient}; valid until {new Date(link.expiresAt).toLocaleString()}.
      </Typography>
      {qr ? (
        <Box
          component="img"
          src={qr}
          alt="QR code of the link"
          sx={{ mt: 2, width: 220, height: 220, bgcolor: 'common.white' }}
        />
      ) : null}
    </Paper>
  );
}
