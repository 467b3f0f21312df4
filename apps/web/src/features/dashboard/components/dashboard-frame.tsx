import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useToast } from '../../../components/toast-context.ts';
import { errorMessage } from '../../../lib/http-error.ts';
import { useDashboardUrl } from '../api/get-dashboard-url.ts';

/** The prefix of the dashboard's load failure (spec 3 §8). */
export const DASHBOARD_ERROR_PREFIX = 'Error loading dashboard - ';

/** Fills the space below the top bar (the shell's main area has 24 px padding). */
const FULL_SIZE = { width: '100%', height: 'calc(100vh - 64px - 48px)', minHeight: 360 };

/**
 * `/` for holders of analytics:dashboard:view (spec 3 §2 "Analytics dashboard"): a full-size
 * embedded page whose address comes from the server; busy until the address arrives.
 */
export function DashboardFrame() {
  const { data, error } = useDashboardUrl();
  const toast = useToast();
  const failure = error ? `${DASHBOARD_ERROR_PREFIX}${errorMessage(error)}` : null;
  useEffect(() => {
    if (failure) {
      toast.error(failure);
    }
  }, [failure, toast]);

  if (failure) {
    return (
      <Box sx={{ ...FULL_SIZE, display: 'grid', placeItems: 'center' }}>
        <Typography role="alert" color="error">
          {failure}
        </Typography>
      </Box>
    );
  }
  if (!data) {
    return (
      <Box sx={{ ...FULL_SIZE, display: 'grid', placeItems: 'center' }} aria-busy="true">
        <CircularProgress aria-label="Loading dashboard" />
      </Box>
    );
  }
  return (
    <Box
      component="iframe"
      title="Analytics dashboard"
      src={data.url}
      sx={{ ...FULL_SIZE, display: 'block', border: 0, bgcolor: 'background.default' }}
    />
  );
}
