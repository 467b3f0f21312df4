import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

interface FullScreenSpinnerProps {
  /** Accessible name of the progress indicator, e.g. 'Signing in'. */
  label: string;
}

/** A spinner covering the whole window while the portal waits (session check, sign-in). */
export function FullScreenSpinner({ label }: FullScreenSpinnerProps) {
  return (
    <Box
      sx={{
        position: 'fixed',
        inset: 0,
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        bgcolor: 'background.default',
        zIndex: (theme) => theme.zIndex.modal + 1,
      }}
    >
      <CircularProgress aria-label={label} />
    </Box>
  );
}
